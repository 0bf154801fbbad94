/**
 * The gateway's HTTP side.
 *
 * Platform routes (under `/api/v10`):
 *   GET /gateway                  `{url}`: where the gateway's WebSocket is (no token needed)
 *   GET /gateway/bot              `{url, shards: 1, session_start_limit}` for the sandbox's bot token (401 for another)
 *
 * Control routes (under `/_sandbox`):
 *   PUT /application/intents      `{intents}`: the privileged intents the application has (a bitfield of
 *                                 GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT; all by default)
 *   GET /application/intents      the same
 */
import { unauthorized, invalidField } from '../errors.js';
import { type Gateway, PRIVILEGED_INTENTS } from '../gateway.js';
import type { Route } from '../router.js';

/** The gateway routes of the platform API; `wsUrl` answers the WebSocket URL once the server listens. */
export function gatewayRoutes(gateway: Gateway, wsUrl: () => string): Route[] {
  return [
    { method: 'GET', pattern: '/gateway', public: true, handle: () => ({ status: 200, body: gateway.info('/gateway', wsUrl()) }) },
    {
      method: 'GET',
      pattern: '/gateway/bot',
      public: true,
      handle: ({ authorization }) => {
        if (authorization !== `Bot ${gateway.token}`) throw unauthorized();
        return { status: 200, body: gateway.info('/gateway/bot', wsUrl()) };
      },
    },
  ];
}

/** The gateway's control routes; patterns are relative to `/_sandbox`. */
export const gatewayControlRoutes: Route[] = [
  { method: 'GET', pattern: '/application/intents', handle: ({ state }) => ({ status: 200, body: { intents: state.privilegedIntents } }) },
  {
    method: 'PUT',
    pattern: '/application/intents',
    handle: ({ state, body }) => {
      const intents = (body as { intents?: unknown } | undefined)?.intents;
      if (typeof intents !== 'number' || !Number.isInteger(intents) || intents < 0 || (intents & ~PRIVILEGED_INTENTS) !== 0) {
        throw invalidField(['intents'], 'BASE_TYPE_CHOICES', `Must be a bitfield of the privileged intents (at most ${PRIVILEGED_INTENTS}).`);
      }
      state.privilegedIntents = intents;
      return { status: 200, body: { intents } };
    },
  },
];

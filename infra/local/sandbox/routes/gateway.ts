/**
 * The gateway's HTTP side.
 *
 * Platform routes (under `/api/v10`):
 *   GET /gateway                  `{url}`: where the gateway's WebSocket is (no token needed)
 *   GET /gateway/bot              `{url, shards: 1, session_start_limit}` for the sandbox's bot token (401 for another)
 *   GET /applications/@me         the bot's application: `id`, `name`, `bot_public`, and `flags` saying which privileged
 *                                 intents it has (GATEWAY_GUILD_MEMBERS, GATEWAY_PRESENCE, GATEWAY_MESSAGE_CONTENT)
 *
 * Control routes (under `/_sandbox`):
 *   PUT /application/intents      `{intents}`: the privileged intents the application has (a bitfield of
 *                                 GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT; all by default)
 *   GET /application/intents      the same
 */
import { unauthorized, invalidField } from '../errors.js';
import { type Gateway, PRIVILEGED_INTENTS } from '../gateway.js';
import type { Route } from '../router.js';
import { BOT_USER, type SandboxState } from '../state.js';

/** Privileged intent (gateway bit) -> the application flag the platform sets when it is turned on. */
const INTENT_FLAGS: [number, number][] = [
  [1 << 1, 1 << 14],
  [1 << 8, 1 << 12],
  [1 << 15, 1 << 18],
];

/** The application as `GET /applications/@me` answers it: the flags follow the privileged intents granted. */
function applicationView(state: SandboxState) {
  const flags = INTENT_FLAGS.reduce((bits, [intent, flag]) => (state.privilegedIntents & intent ? bits | flag : bits), 0);
  return { id: BOT_USER.id, name: BOT_USER.username, description: '', bot_public: true, bot_require_code_grant: false, flags, bot: BOT_USER };
}

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
    { method: 'GET', pattern: '/applications/@me', handle: ({ state }) => ({ status: 200, body: applicationView(state) }) },
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

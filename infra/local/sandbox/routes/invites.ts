/**
 * Invite routes: create and list a channel's invites, list a guild's, read
 * and delete one by code, and a guild's vanity URL with its uses.
 *
 * Control routes (under `/_sandbox`):
 *   POST /invites/{code}/use                                a use is counted (a single-use invite then disappears)
 *   POST /guilds/{g}/members/{u}/join-via-invite/{code}     the user joins the guild through the invite (a use, then the join)
 *   PUT  /guilds/{g}/vanity                                 `{code}`: the guild's vanity URL
 *   POST /guilds/{g}/members/{u}/join-via-vanity            the user joins through the vanity URL (its uses go up)
 */
import { randomBytes } from 'node:crypto';
import { FormErrors, invalidField } from '../errors.js';
import { ensureChannel, isInviteExpired, requireChannel, requireInvite } from '../lookup.js';
import type { Route } from '../router.js';
import { BOT_USER, type SandboxState, type StoredInvite } from '../state.js';
import { inviteView } from '../views.js';
import { join } from './members.js';

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function mintCode(state: SandboxState): string {
  for (;;) {
    const code = [...randomBytes(8)].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
    if (!state.invites.has(code)) return code;
  }
}

function intIn(errors: FormErrors, field: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > max) {
    errors.add([field], 'NUMBER_TYPE_MAX', `int value should be between 0 and ${max}.`);
    return fallback;
  }
  return value as number;
}

/** Creates an invite with the platform's defaults: a day long, unlimited uses. */
function createInvite(state: SandboxState, channelId: string, body: unknown, inviterId = BOT_USER.id): StoredInvite {
  const channel = ensureChannel(state, channelId);
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const errors = new FormErrors();
  const invite: StoredInvite = {
    code: mintCode(state),
    channel_id: channel.id,
    guild_id: channel.guild_id,
    inviter_id: inviterId,
    max_age: intIn(errors, 'max_age', b.max_age, 86_400, 604_800),
    max_uses: intIn(errors, 'max_uses', b.max_uses, 0, 100),
    temporary: b.temporary === true,
    uses: 0,
    created_at: new Date(),
  };
  errors.throwIfAny();
  state.invites.set(invite.code, invite);
  return invite;
}

function channelInvites(state: SandboxState, channelId: string): StoredInvite[] {
  requireChannel(state, channelId);
  const invites = [...state.invites.values()].filter((i) => i.channel_id === channelId);
  // Expired invites are gone, as on the platform.
  for (const invite of invites.filter((i) => isInviteExpired(i))) state.invites.delete(invite.code);
  return invites.filter((i) => !isInviteExpired(i));
}

/**
 * A member joins through an invite (sandbox control): counts a use, and
 * the invite disappears when it reaches `max_uses`, as on the platform.
 */
export function useInvite(state: SandboxState, code: string): StoredInvite {
  const invite = requireInvite(state, code);
  invite.uses += 1;
  if (invite.max_uses > 0 && invite.uses >= invite.max_uses) state.invites.delete(code);
  return invite;
}

/** Every live invite of a guild (invites of channels whose guild the sandbox knows). */
function guildInvites(state: SandboxState, guildId: string): StoredInvite[] {
  for (const invite of [...state.invites.values()].filter((i) => isInviteExpired(i))) state.invites.delete(invite.code);
  return [...state.invites.values()].filter((i) => i.guild_id === guildId);
}

/** The invite routes of the platform API. */
export const inviteRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/guilds/:guild/invites',
    handle: ({ state, params }) => ({ status: 200, body: guildInvites(state, params.guild!).map((i) => inviteView(state, i, true)) }),
  },
  {
    method: 'GET',
    pattern: '/guilds/:guild/vanity-url',
    handle: ({ state, params }) => ({ status: 200, body: state.vanity.get(params.guild!) ?? { code: null, uses: 0 } }),
  },
  {
    method: 'POST',
    pattern: '/channels/:channel/invites',
    handle: ({ state, params, body }) => ({ status: 200, body: inviteView(state, createInvite(state, params.channel!, body), true) }),
  },
  {
    method: 'GET',
    pattern: '/channels/:channel/invites',
    handle: ({ state, params }) => ({ status: 200, body: channelInvites(state, params.channel!).map((i) => inviteView(state, i, true)) }),
  },
  {
    method: 'GET',
    pattern: '/invites/:code',
    handle: ({ state, params }) => ({ status: 200, body: inviteView(state, requireInvite(state, params.code!), false) }),
  },
  {
    method: 'DELETE',
    pattern: '/invites/:code',
    handle: ({ state, params }) => {
      const invite = requireInvite(state, params.code!);
      state.invites.delete(invite.code);
      return { status: 200, body: inviteView(state, invite, false) };
    },
  },
];

/** The invite control routes; patterns are relative to `/_sandbox`. */
export const inviteControlRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/invites/:code/use',
    handle: ({ state, params }) => ({ status: 200, body: inviteView(state, useInvite(state, params.code!), true) }),
  },
  {
    method: 'POST',
    pattern: '/guilds/:guild/members/:user/join-via-invite/:code',
    handle: ({ state, params, body }) => {
      const invite = useInvite(state, params.code!);
      return { status: 200, body: { invite: inviteView(state, invite, true), member: join(state, params.guild!, params.user!, body) } };
    },
  },
  {
    method: 'PUT',
    pattern: '/guilds/:guild/vanity',
    handle: ({ state, params, body }) => {
      const code = (body as { code?: unknown } | undefined)?.code;
      if (typeof code !== 'string' || !/^[A-Za-z0-9-]{2,32}$/.test(code))
        throw invalidField(['code'], 'BASE_TYPE_BAD_LENGTH', 'Must be 2 to 32 letters, digits or dashes.');
      state.vanity.set(params.guild!, { code, uses: state.vanity.get(params.guild!)?.uses ?? 0 });
      return { status: 200, body: state.vanity.get(params.guild!) };
    },
  },
  {
    method: 'POST',
    pattern: '/guilds/:guild/members/:user/join-via-vanity',
    handle: ({ state, params, body }) => {
      const vanity = state.vanity.get(params.guild!);
      if (!vanity) throw invalidField(['guild'], 'UNKNOWN_VANITY', 'The guild has no vanity URL; set one with PUT /_sandbox/guilds/{g}/vanity.');
      vanity.uses += 1;
      return { status: 200, body: { vanity, member: join(state, params.guild!, params.user!, body) } };
    },
  },
];

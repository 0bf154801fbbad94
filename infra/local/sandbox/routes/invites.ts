/**
 * Invite routes: create and list a channel's invites, list a guild's, read
 * and delete one by code, and a guild's vanity URL with its uses. Invites
 * created and deleted (or used up) are dispatched (INVITE_CREATE, _DELETE).
 *
 * Control routes (under `/_sandbox`):
 *   POST /invites/{code}/use                                a use is counted (a single-use invite then disappears)
 *   POST /guilds/{g}/members/{u}/join-via-invite/{code}     the user joins the guild through the invite (a use, then the join)
 *   PUT  /guilds/{g}/vanity                                 `{code}`: the guild's vanity URL
 *   POST /guilds/{g}/members/{u}/join-via-vanity            the user joins through the vanity URL (its uses go up)
 */
import { randomBytes } from 'node:crypto';
import { GatewayDispatchEvents } from 'discord-api-types/v10';
import { FormErrors, invalidField } from '../errors.js';
import { dispatch } from '../events.js';
import { ensureChannel, isInviteExpired, requireChannel, requireInvite } from '../lookup.js';
import type { Route } from '../router.js';
import { BOT_USER, type SandboxState, type StoredInvite } from '../state.js';
import { inviteView } from '../views.js';
import { join, userView } from './members.js';

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
  const guild = invite.guild_id ? { guild_id: invite.guild_id } : {};
  const d = {
    ...guild,
    channel_id: invite.channel_id,
    code: invite.code,
    created_at: invite.created_at.toISOString(),
    inviter: userView(state, invite.inviter_id),
    max_age: invite.max_age,
    max_uses: invite.max_uses,
    temporary: invite.temporary,
    uses: 0 as const,
    expires_at: invite.max_age > 0 ? new Date(invite.created_at.getTime() + invite.max_age * 1000).toISOString() : null,
  };
  dispatch(state, { t: GatewayDispatchEvents.InviteCreate, d });
  return invite;
}

/** An invite goes (deleted, or used up): INVITE_DELETE. */
function removeInvite(state: SandboxState, invite: StoredInvite): void {
  state.invites.delete(invite.code);
  const d = { channel_id: invite.channel_id, code: invite.code, ...(invite.guild_id ? { guild_id: invite.guild_id } : {}) };
  dispatch(state, { t: GatewayDispatchEvents.InviteDelete, d });
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
  if (invite.max_uses > 0 && invite.uses >= invite.max_uses) removeInvite(state, invite);
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
      removeInvite(state, invite);
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

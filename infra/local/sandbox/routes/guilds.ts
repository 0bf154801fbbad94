/**
 * Member role routes. Every user counts as a member of every guild (the
 * sandbox has no joins); a role marked forbidden behaves like a role above
 * the bot: 403 Missing Permissions.
 */
import type { GuildMember } from '../../../../shared/platform/types.js';
import { missingPermissions } from '../errors.js';
import type { Route } from '../router.js';
import { rolesOf, type SandboxState, userOf } from '../state.js';

/** The key of a forbidden role in the state. */
export const forbiddenKey = (guildId: string, roleId: string) => `${guildId}/${roleId}`;

/** A member's view: their user and roles. */
export function memberView(state: SandboxState, guildId: string, userId: string): GuildMember {
  return { user: userOf(userId), roles: [...rolesOf(state, guildId, userId)], nick: null };
}

function changeRole(state: SandboxState, params: Record<string, string>, grant: boolean): void {
  const { guild, user, role } = params as { guild: string; user: string; role: string };
  if (state.forbiddenRoles.has(forbiddenKey(guild, role))) throw missingPermissions();
  const roles = rolesOf(state, guild, user);
  if (grant) roles.add(role);
  else roles.delete(role);
}

/** The guild member routes of the platform API. */
export const guildRoutes: Route[] = [
  {
    method: 'PUT',
    pattern: '/guilds/:guild/members/:user/roles/:role',
    handle: ({ state, params }) => (changeRole(state, params, true), { status: 204 }),
  },
  {
    method: 'DELETE',
    pattern: '/guilds/:guild/members/:user/roles/:role',
    handle: ({ state, params }) => (changeRole(state, params, false), { status: 204 }),
  },
  {
    method: 'GET',
    pattern: '/guilds/:guild/members/:user',
    handle: ({ state, params }) => ({ status: 200, body: memberView(state, params.guild!, params.user!) }),
  },
];

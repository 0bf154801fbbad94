/**
 * Member role routes, and the guild and member routes of `members.ts`. A
 * role marked forbidden behaves like a role above the bot: 403 Missing
 * Permissions; a user who is not in the guild is 404 Unknown Member.
 */
import { missingPermissions } from '../errors.js';
import type { Route } from '../router.js';
import { rolesOf, type SandboxState } from '../state.js';
import { memberRoutes, memberUpdated, requireMember } from './members.js';

export { memberView } from './members.js';

/** The key of a forbidden role in the state. */
export const forbiddenKey = (guildId: string, roleId: string) => `${guildId}/${roleId}`;

function changeRole(state: SandboxState, params: Record<string, string>, grant: boolean): void {
  const { guild, user, role } = params as { guild: string; user: string; role: string };
  requireMember(state, guild, user);
  // A role above the bot, or one an integration manages, is out of the bot's reach.
  if (state.forbiddenRoles.has(forbiddenKey(guild, role)) || state.guilds.get(guild)?.managed?.has(role)) throw missingPermissions();
  const roles = rolesOf(state, guild, user);
  if (roles.has(role) === grant) return;
  if (grant) roles.add(role);
  else roles.delete(role);
  memberUpdated(state, guild, user);
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
  ...memberRoutes,
];

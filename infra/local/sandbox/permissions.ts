/**
 * A member's guild-wide permissions as the platform computes them: the
 * owner holds every permission; anyone else holds `@everyone`'s bits, those
 * of each role they hold, and (a sandbox knob standing for whatever gave
 * them rights outside roles) the bits given with
 * `PUT /_sandbox/guilds/{g}/members/{u}/permissions`; Administrator among
 * them means every permission. `GET /users/@me/guilds` answers this, and
 * running a command is checked against it.
 */
import { ALL_PERMISSIONS, Permission, basePermissions } from '#shared/platform/permissions.js';
import { FormErrors } from './errors.js';
import type { Route } from './router.js';
import { guildOf, requireMember, rolesOfGuild } from './routes/members.js';
import type { SandboxState } from './state.js';

/** What the member may do in the whole guild (no channel overwrites). */
export function guildPermissionsOf(state: SandboxState, guildId: string, userId: string): bigint {
  const guild = state.guilds.get(guildId);
  if (guild?.owner_id === userId) return ALL_PERMISSIONS;
  const held = [...(state.members.get(guildId)?.get(userId) ?? [])];
  const bits = basePermissions(guildId, rolesOfGuild(state, guildId), held) | BigInt(guild?.grants?.get(userId) ?? '0');
  return bits & Permission.Administrator ? ALL_PERMISSIONS : bits;
}

/** A permission bitfield as the platform writes it: a decimal string that fits in 64 bits. */
const isBitfield = (value: unknown): value is string => typeof value === 'string' && /^[0-9]{1,20}$/.test(value) && BigInt(value) <= ALL_PERMISSIONS;

/** The control route of this file; its pattern is relative to `/_sandbox`. */
export const permissionControlRoutes: Route[] = [
  {
    method: 'PUT',
    pattern: '/guilds/:guild/members/:user/permissions',
    handle: ({ state, params, body }) => {
      const { guild: guildId, user: userId } = params as { guild: string; user: string };
      const permissions = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).permissions : undefined;
      const errors = new FormErrors();
      if (!isBitfield(permissions)) {
        errors.add(['permissions'], 'NUMBER_TYPE_COERCE', 'Permission bits as a decimal string below 2^64, e.g. "32" for Manage Guild; "0" takes them back.');
      }
      errors.throwIfAny();
      requireMember(state, guildId, userId);
      const grants = (guildOf(state, guildId).grants ??= new Map());
      if (BigInt(permissions as string) === 0n) grants.delete(userId);
      else grants.set(userId, BigInt(permissions as string).toString());
      return { status: 200, body: { permissions: String(guildPermissionsOf(state, guildId, userId)) } };
    },
  },
];

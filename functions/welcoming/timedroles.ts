/**
 * Timed roles: a role a member gets `add_after` seconds after joining. At
 * most 20 a guild and one per role, both conditions on the registry (see
 * responses.ts for the order of writes). Creating one starts the guild's
 * hourly catch-up; deleting one cancels its pending grants.
 */
import { recordIdAhead } from '#shared/db/record-ids.js';
import { unprocessable } from '#shared/errors.js';
import { requireEnabled, requireEnabledRecord, requireEnabledWhile } from '#shared/modules/state.js';
import { keepCatchingUp, sweepGrants } from './grants.js';
import { TimedRoleEntity, mintOrderedId, quoted } from './keys.js';
import { MAX_TIMED_ROLES, type TimedRole } from './model.js';
import { timedRoleRecords } from './records.js';
import { MODULE } from './settings.js';
import { deleteTimedRoleItem, insertTimedRole, register, timedRolePlace, unregister } from './store.js';

export async function listTimedRoleRecords(guildId: string) {
  const [, timedroles] = await requireEnabledWhile(guildId, MODULE, () => timedRoleRecords(guildId));
  return { timedroles };
}

/** The timed role, when the module is enabled (409 first, then 404): both read in one request. */
async function requireTimedRole(guildId: string, timedRoleId: string): Promise<TimedRole> {
  return requireEnabledRecord(guildId, MODULE, TimedRoleEntity, { guildId, timedRoleId }, `Guild ${guildId} has no timed role ${quoted(timedRoleId)}.`);
}

export async function getTimedRoleRecord(guildId: string, timedRoleId: string) {
  return { timedrole: await requireTimedRole(guildId, timedRoleId) };
}

export async function createTimedRole(guildId: string, input: { role_id: string; add_after: number }) {
  const id = recordIdAhead('welcoming.timedrole');
  await requireEnabled(guildId, MODULE);
  const now = Date.now();
  const timedRole: TimedRole = {
    id: await id,
    guild_id: guildId,
    timedrole_id: mintOrderedId(now),
    role_id: input.role_id,
    add_after: input.add_after,
    created_at: new Date(now).toISOString(),
  };
  if (!(await insertTimedRole(timedRole))) throw new Error(`minted timed role ID ${timedRole.timedrole_id} already exists`);
  const place = await register(guildId, timedRolePlace(timedRole), timedRole.timedrole_id, MAX_TIMED_ROLES);
  if (place !== 'ok') {
    await deleteTimedRoleItem(guildId, timedRole.timedrole_id);
    throw unprocessable(
      place === 'taken'
        ? `Field 'role_id': role ${input.role_id} already has a timed role in guild ${guildId}; delete it first to change its add_after.`
        : `Guild ${guildId} already has ${MAX_TIMED_ROLES} timed roles, the most it may keep; delete one first.`,
    );
  }
  await keepCatchingUp(guildId);
  return { timedrole: timedRole };
}

export async function deleteTimedRole(guildId: string, timedRoleId: string) {
  const timedRole = await requireTimedRole(guildId, timedRoleId);
  await unregister(guildId, timedRolePlace(timedRole), timedRole.timedrole_id);
  await deleteTimedRoleItem(guildId, timedRoleId);
  await sweepGrants(guildId);
  return { timedrole: timedRole };
}

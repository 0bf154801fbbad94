/**
 * The welcoming module's stored items and the operations on them (through
 * its entities). Every invariant is one conditional write on one item: a
 * limit or a duplicate on the registry, a grant's existence on its grant item.
 */
import { deleteKeys, getNamed } from '#shared/db/batch.js';
import type { Key } from '#shared/db/entity.js';
import { type ModuleStateItem, deleteGuildItems, moduleStateKey } from '#shared/modules/store.js';
import {
  CatchUpEntity,
  GrantEntity,
  RESET_PREFIXES,
  RegistryEntity,
  ResponseEntity,
  TimedRoleEntity,
  isMintedId,
  responsesMap,
  TIMEDROLES_MAP,
} from './keys.js';
import type { Grant, TimedRole, WelcomeResponse } from './model.js';

/** A granted grant is kept this long, so a catch-up that read the member list before the grant cannot grant again. */
const GRANTED_KEPT_SECONDS = 24 * 3600;

// Responses and timed roles: minted IDs start with the time, so each list is oldest first.

export const listResponses = (guildId: string) => ResponseEntity.query({ guildId });
export const listTimedRoles = (guildId: string) => TimedRoleEntity.query({ guildId });

export async function findResponse(guildId: string, responseId: string): Promise<WelcomeResponse | null> {
  return isMintedId(responseId) ? ResponseEntity.get({ guildId, responseId }) : null;
}

/** Writes a new response; false if its ID exists. */
export const insertResponse = (r: WelcomeResponse) => ResponseEntity.put({ guildId: r.guild_id, responseId: r.response_id }, r, { ifAbsent: true });
/** Writes a new timed role; false if its ID exists. */
export const insertTimedRole = (t: TimedRole) => TimedRoleEntity.put({ guildId: t.guild_id, timedRoleId: t.timedrole_id }, t, { ifAbsent: true });

export async function deleteResponseItem(guildId: string, responseId: string): Promise<void> {
  await ResponseEntity.delete({ guildId, responseId });
}

export async function deleteTimedRoleItem(guildId: string, timedRoleId: string): Promise<void> {
  await TimedRoleEntity.delete({ guildId, timedRoleId });
}

// The registry: limits and duplicates as conditions on one item.

/** Where a record is registered: a response under its type, a timed role under its role. */
export type Place = { map: string; key: string };
export const responsePlace = (r: Pick<WelcomeResponse, 'response_type' | 'response_id'>): Place => ({ map: responsesMap(r.response_type), key: r.response_id });
export const timedRolePlace = (t: Pick<TimedRole, 'role_id'>): Place => ({ map: TIMEDROLES_MAP, key: t.role_id });

/** The registry entry of a place, as a document path: the member `key` of the map `map`. */
const entryOf = (place: Place) => `${place.map}.${place.key}`;

/** DynamoDB's answer to a write to a member of a map that is not there yet. */
function isMissingPath(error: unknown): boolean {
  return Boolean(error && typeof error === 'object' && (error as { name?: string }).name === 'ValidationException');
}

/**
 * Takes a place in the registry: `full` when the map already holds `max`
 * entries, `taken` when its key is there. The registry item and its maps are
 * made on first use, holding that first entry (one write).
 */
export async function register(guildId: string, place: Place, value: string, max: number): Promise<'ok' | 'full' | 'taken'> {
  for (let attempt = 0; attempt < 2; attempt++) {
    let written: boolean;
    try {
      written = await RegistryEntity.update(
        { guildId },
        {
          set: { [entryOf(place)]: value },
          // A missing map passes here and fails the SET (ValidationException): it is then made, and the write tried again.
          condition: { [entryOf(place)]: { exists: false }, $or: [{ [place.map]: { exists: false } }, { [place.map]: { size: { lt: max } } }] },
          returnValues: 'NONE',
        },
      );
    } catch (error) {
      if (!isMissingPath(error) || attempt > 0) throw error;
      // The map is made holding this first entry, unless another write made it meanwhile: then the SET is tried again.
      const made = await RegistryEntity.update(
        { guildId },
        { set: { [place.map]: { [place.key]: value } }, condition: { [place.map]: { exists: false } }, returnValues: 'NONE' },
      );
      if (made) return 'ok';
      continue;
    }
    if (written) return 'ok';
    const registry = await RegistryEntity.get({ guildId });
    return registry?.[place.map]?.[place.key] !== undefined ? 'taken' : 'full';
  }
  return 'ok';
}

/** Gives a place back, if it still holds `value` (idempotent). */
export async function unregister(guildId: string, place: Place, value: string): Promise<void> {
  await RegistryEntity.update({ guildId }, { remove: [entryOf(place)], condition: { [entryOf(place)]: value }, returnValues: 'NONE' });
}

// Timed-role grants.

/**
 * Records a grant owed to a member. `join`: replaces a grant already made
 * (the member joined again) but keeps a pending one; `catchUp`: only when
 * the member has none for this timed role. Answers whether it was written.
 */
export function putGrant(guildId: string, grant: Grant, mode: 'join' | 'catchUp'): Promise<boolean> {
  const fields = { guildId, memberId: grant.member_id, timedRoleId: grant.timedrole_id };
  return mode === 'join'
    ? GrantEntity.put(fields, grant, { condition: { $or: [{ pk: { exists: false } }, { granted_at: { exists: true } }] } })
    : GrantEntity.put(fields, grant, { ifAbsent: true });
}

/** What a due grant needs to decide, in one batch read: the grant, its timed role, the module state. */
export async function grantContext(guildId: string, memberId: string, timedRoleId: string) {
  const found = await getNamed({
    grant: GrantEntity.key({ guildId, memberId, timedRoleId }),
    timedRole: TimedRoleEntity.key({ guildId, timedRoleId }),
    state: moduleStateKey(guildId, 'welcoming'),
  });
  return {
    grant: found.grant && GrantEntity.parse(found.grant),
    timedRole: found.timedRole && TimedRoleEntity.parse(found.timedRole),
    state: found.state as ModuleStateItem | null,
  };
}

/** Marks a pending grant as done; false when it is gone or already done. */
export function markGranted(guildId: string, memberId: string, timedRoleId: string, now = Date.now()): Promise<boolean> {
  return GrantEntity.update(
    { guildId, memberId, timedRoleId },
    {
      set: { granted_at: now, expires_at: Math.floor(now / 1000) + GRANTED_KEPT_SECONDS },
      condition: { pk: { exists: true }, granted_at: { exists: false } },
      returnValues: 'NONE',
    },
  );
}

export async function deleteGrant(guildId: string, memberId: string, timedRoleId: string): Promise<void> {
  await GrantEntity.delete({ guildId, memberId, timedRoleId });
}

/** A member's grants, pending and recently made. */
export const memberGrants = (guildId: string, memberId: string) => GrantEntity.query({ guildId }, { under: [memberId] });

/** The grants these members hold of these timed roles, where they exist: one consistent batch read per 100. */
export async function grantsOf(guildId: string, pairs: readonly { memberId: string; timedRoleId: string }[]): Promise<Grant[]> {
  const found = await GrantEntity.getMany(pairs.map(({ memberId, timedRoleId }) => ({ guildId, memberId, timedRoleId })));
  return found.filter((grant) => grant !== null);
}

// The catch-up's place in the member list.

/** The last member ID the running catch-up pass reached, or null when no pass is under way. */
export async function catchUpPlace(guildId: string): Promise<string | null> {
  return (await CatchUpEntity.get({ guildId }))?.after ?? null;
}

/**
 * Moves the pass on to `after`, only from where it was read (`from`, null:
 * no pass under way), so a redelivered or concurrent run can neither move it
 * back nor skip a page. Answers whether it moved.
 */
export function moveCatchUp(guildId: string, from: string | null, after: string): Promise<boolean> {
  return CatchUpEntity.put(
    { guildId },
    { after_member: after, updated_at: new Date().toISOString() },
    from === null ? { ifAbsent: true } : { condition: { after_member: from } },
  );
}

/** Ends the pass that stood at `from` (the last page is done). */
export function endCatchUp(guildId: string, from: string): Promise<boolean> {
  return CatchUpEntity.delete({ guildId }, { condition: { after_member: from } });
}

/** Deletes grant items, and in the same batches any other keys given (their due work). */
export const deleteGrants = (guildId: string, grants: readonly Grant[], alsoKeys: readonly Key[] = []) =>
  deleteKeys([...grants.map((g) => GrantEntity.key({ guildId, memberId: g.member_id, timedRoleId: g.timedrole_id })), ...alsoKeys]);

/** Removes the module's items of the guild but its grants (responses, timed roles, registry, catch-up place); answers the records among them, oldest first. */
export async function deleteModuleItems(guildId: string): Promise<{ responses: WelcomeResponse[]; timedRoles: TimedRole[] }> {
  const items = (await Promise.all(RESET_PREFIXES.map((prefix) => deleteGuildItems(guildId, prefix)))).flat();
  return {
    responses: items.filter(ResponseEntity.holds).map(ResponseEntity.parse),
    timedRoles: items.filter(TimedRoleEntity.holds).map(TimedRoleEntity.parse),
  };
}

/**
 * The welcoming module's DynamoDB access: the only file issuing its
 * commands. Every invariant is one conditional write on one item: a limit or
 * a duplicate on the registry, a grant's existence on its grant item.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteKeys, getKeys, getNamed } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { conditional, isConditionFailed } from '#shared/db/errors.js';
import { queryAll } from '#shared/db/pagination.js';
import { tableName } from '#shared/db/table.js';
import type { Item, Key } from '#shared/db/entity.js';
import { type ModuleStateItem, deleteGuildItems, guildKey, moduleStateKey } from '#shared/modules/store.js';
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

/** Every item of the guild under a sort-key prefix, oldest first (minted IDs start with the time). */
const itemsUnder = (guildId: string, prefix: string) =>
  queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': prefix },
    ConsistentRead: true,
  });

async function getItem(key: Key): Promise<Item | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return out.Item ?? null;
}

const putNew = (item: Item) =>
  conditional(() => db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' })));

async function deleteItem(key: Key): Promise<Item | null> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: key, ReturnValues: 'ALL_OLD' }));
  return out.Attributes ?? null;
}

// Responses and timed roles.

export const listResponses = async (guildId: string) => (await itemsUnder(guildId, ResponseEntity.prefix)).map(ResponseEntity.parse);
export const listTimedRoles = async (guildId: string) => (await itemsUnder(guildId, TimedRoleEntity.prefix)).map(TimedRoleEntity.parse);

export async function getResponse(guildId: string, responseId: string): Promise<WelcomeResponse | null> {
  if (!isMintedId(responseId)) return null;
  const item = await getItem(ResponseEntity.key({ guildId, responseId }));
  return item && ResponseEntity.parse(item);
}

export const insertResponse = (r: WelcomeResponse) => putNew(ResponseEntity.item({ guildId: r.guild_id, responseId: r.response_id }, r));
export const insertTimedRole = (t: TimedRole) => putNew(TimedRoleEntity.item({ guildId: t.guild_id, timedRoleId: t.timedrole_id }, t));

export async function deleteResponse(guildId: string, responseId: string): Promise<WelcomeResponse | null> {
  const old = await deleteItem(ResponseEntity.key({ guildId, responseId }));
  return old && ResponseEntity.parse(old);
}

export async function deleteTimedRole(guildId: string, timedRoleId: string): Promise<TimedRole | null> {
  const old = await deleteItem(TimedRoleEntity.key({ guildId, timedRoleId }));
  return old && TimedRoleEntity.parse(old);
}

// The registry: limits and duplicates as conditions on one item.

/** Where a record is registered: a response under its type, a timed role under its role. */
export type Place = { map: string; key: string };
export const responsePlace = (r: Pick<WelcomeResponse, 'response_type' | 'response_id'>): Place => ({ map: responsesMap(r.response_type), key: r.response_id });
export const timedRolePlace = (t: Pick<TimedRole, 'role_id'>): Place => ({ map: TIMEDROLES_MAP, key: t.role_id });

function isMissingPath(error: unknown): boolean {
  return Boolean(error && typeof error === 'object' && (error as { name?: string }).name === 'ValidationException');
}

/**
 * Takes a place in the registry: `full` when the map already holds `max`
 * entries, `taken` when its key is there. The registry item and its maps are
 * made on first use, holding that first entry (one write).
 */
export async function register(guildId: string, place: Place, value: string, max: number): Promise<'ok' | 'full' | 'taken'> {
  const write = () =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: RegistryEntity.key({ guildId }),
        UpdateExpression: 'SET #map.#key = :value',
        // A missing map passes here and fails the SET (ValidationException): it is then made, and the write tried again.
        ConditionExpression: 'attribute_not_exists(#map.#key) AND (attribute_not_exists(#map) OR size(#map) < :max)',
        ExpressionAttributeNames: { '#map': place.map, '#key': place.key },
        ExpressionAttributeValues: { ':value': value, ':max': max },
      }),
    );
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await write();
      return 'ok';
    } catch (error) {
      if (isConditionFailed(error)) {
        const registry = await getItem(RegistryEntity.key({ guildId }));
        return registry && RegistryEntity.parse(registry)[place.map]?.[place.key] !== undefined ? 'taken' : 'full';
      }
      if (!isMissingPath(error) || attempt > 0) throw error;
      // The map is made holding this first entry, unless another write made it meanwhile: then the SET is tried again.
      const made = await conditional(() =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: RegistryEntity.key({ guildId }),
            UpdateExpression: 'SET entity = :entity, #map = :first',
            ConditionExpression: 'attribute_not_exists(#map)',
            ExpressionAttributeNames: { '#map': place.map },
            ExpressionAttributeValues: { ':entity': RegistryEntity.name, ':first': { [place.key]: value } },
          }),
        ),
      );
      if (made) return 'ok';
    }
  }
  return 'ok';
}

/** Gives a place back, if it still holds `value` (idempotent). */
export async function unregister(guildId: string, place: Place, value: string): Promise<void> {
  await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: RegistryEntity.key({ guildId }),
        UpdateExpression: 'REMOVE #map.#key',
        ConditionExpression: '#map.#key = :value',
        ExpressionAttributeNames: { '#map': place.map, '#key': place.key },
        ExpressionAttributeValues: { ':value': value },
      }),
    ),
  );
}

// Timed-role grants.

/**
 * Records a grant owed to a member. `join`: replaces a grant already made
 * (the member joined again) but keeps a pending one; `catchUp`: only when
 * the member has none for this timed role. Answers whether it was written.
 */
export function putGrant(guildId: string, grant: Grant, mode: 'join' | 'catchUp'): Promise<boolean> {
  return conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: GrantEntity.item({ guildId, memberId: grant.member_id, timedRoleId: grant.timedrole_id }, grant),
        ConditionExpression: mode === 'join' ? 'attribute_not_exists(pk) OR attribute_exists(granted_at)' : 'attribute_not_exists(pk)',
      }),
    ),
  );
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
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: GrantEntity.key({ guildId, memberId, timedRoleId }),
        UpdateExpression: 'SET granted_at = :now, expires_at = :ttl',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(granted_at)',
        ExpressionAttributeValues: { ':now': now, ':ttl': Math.floor(now / 1000) + GRANTED_KEPT_SECONDS },
      }),
    ),
  );
}

export const deleteGrant = (guildId: string, memberId: string, timedRoleId: string) => deleteItem(GrantEntity.key({ guildId, memberId, timedRoleId }));

/** A member's grants, pending and recently made. */
export const memberGrants = async (guildId: string, memberId: string) => (await itemsUnder(guildId, GrantEntity.under(memberId))).map(GrantEntity.parse);
/** The grants these members hold of these timed roles, where they exist: one consistent batch read per 100. */
export async function grantsOf(guildId: string, pairs: readonly { memberId: string; timedRoleId: string }[]): Promise<Grant[]> {
  return (await getKeys(pairs.map(({ memberId, timedRoleId }) => GrantEntity.key({ guildId, memberId, timedRoleId })))).map(GrantEntity.parse);
}

// The catch-up's place in the member list.

/** The last member ID the running catch-up pass reached, or null when no pass is under way. */
export async function catchUpPlace(guildId: string): Promise<string | null> {
  const item = await getItem(CatchUpEntity.key({ guildId }));
  return item && CatchUpEntity.parse(item).after;
}

/**
 * Moves the pass on to `after`, only from where it was read (`from`, null:
 * no pass under way), so a redelivered or concurrent run can neither move it
 * back nor skip a page. Answers whether it moved.
 */
export function moveCatchUp(guildId: string, from: string | null, after: string): Promise<boolean> {
  return conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: CatchUpEntity.item({ guildId }, { after_member: after, updated_at: new Date().toISOString() }),
        ConditionExpression: from === null ? 'attribute_not_exists(pk)' : 'after_member = :from',
        ExpressionAttributeValues: from === null ? undefined : { ':from': from },
      }),
    ),
  );
}

/** Ends the pass that stood at `from` (the last page is done). */
export function endCatchUp(guildId: string, from: string): Promise<boolean> {
  return conditional(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: CatchUpEntity.key({ guildId }),
        ConditionExpression: 'after_member = :from',
        ExpressionAttributeValues: { ':from': from },
      }),
    ),
  );
}

/** Deletes these grants' items. */
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

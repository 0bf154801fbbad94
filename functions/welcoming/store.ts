/**
 * The welcoming module's DynamoDB access: the only file issuing its
 * commands. Every invariant is one conditional write on one item: a limit or
 * a duplicate on the registry, a grant's existence on its grant item.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteKeys, getNamed } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { conditional, isConditionFailed } from '#shared/db/errors.js';
import { queryAll } from '#shared/db/pagination.js';
import { tableName } from '#shared/db/table.js';
import { type ModuleStateItem, deleteGuildItems, guildKey, moduleStateKey, recordOf } from '#shared/modules/store.js';
import {
  GRANT_ENTITY,
  GRANT_PREFIX,
  REGISTRY_ENTITY,
  RESPONSE_ENTITY,
  RESPONSE_PREFIX,
  TIMEDROLE_ENTITY,
  TIMEDROLE_PREFIX,
  grantKey,
  isMintedId,
  memberGrantsPrefix,
  registryKey,
  responseKey,
  responsesMap,
  TIMEDROLES_MAP,
  timedRoleKey,
} from './keys.js';
import type { Grant, TimedRole, WelcomeResponse } from './model.js';

type Item = Record<string, unknown>;
type Key = { pk: string; sk: string };

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

const putNew = (key: Key, entity: string, record: object) =>
  conditional(() =>
    db().send(new PutCommand({ TableName: tableName(), Item: { ...key, entity, ...record }, ConditionExpression: 'attribute_not_exists(pk)' })),
  );

async function deleteItem(key: Key): Promise<Item | null> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: key, ReturnValues: 'ALL_OLD' }));
  return out.Attributes ?? null;
}

// Responses and timed roles.

export const listResponses = async (guildId: string) =>
  (await itemsUnder(guildId, RESPONSE_PREFIX)).map((item) => recordOf(item) as unknown as WelcomeResponse);
export const listTimedRoles = async (guildId: string) => (await itemsUnder(guildId, TIMEDROLE_PREFIX)).map((item) => recordOf(item) as unknown as TimedRole);

export async function getResponse(guildId: string, responseId: string): Promise<WelcomeResponse | null> {
  if (!isMintedId(responseId)) return null;
  const item = await getItem(responseKey(guildId, responseId));
  return item && (recordOf(item) as unknown as WelcomeResponse);
}

export const insertResponse = (r: WelcomeResponse) => putNew(responseKey(r.guild_id, r.response_id), RESPONSE_ENTITY, r);
export const insertTimedRole = (t: TimedRole) => putNew(timedRoleKey(t.guild_id, t.timedrole_id), TIMEDROLE_ENTITY, t);

export async function deleteResponse(guildId: string, responseId: string): Promise<WelcomeResponse | null> {
  const old = await deleteItem(responseKey(guildId, responseId));
  return old && (recordOf(old) as unknown as WelcomeResponse);
}

export async function deleteTimedRole(guildId: string, timedRoleId: string): Promise<TimedRole | null> {
  const old = await deleteItem(timedRoleKey(guildId, timedRoleId));
  return old && (recordOf(old) as unknown as TimedRole);
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
        Key: registryKey(guildId),
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
        const registry = await getItem(registryKey(guildId));
        return (registry?.[place.map] as Item | undefined)?.[place.key] !== undefined ? 'taken' : 'full';
      }
      if (!isMissingPath(error) || attempt > 0) throw error;
      // The map is made holding this first entry, unless another write made it meanwhile: then the SET is tried again.
      const made = await conditional(() =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: registryKey(guildId),
            UpdateExpression: 'SET entity = :entity, #map = :first',
            ConditionExpression: 'attribute_not_exists(#map)',
            ExpressionAttributeNames: { '#map': place.map },
            ExpressionAttributeValues: { ':entity': REGISTRY_ENTITY, ':first': { [place.key]: value } },
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
        Key: registryKey(guildId),
        UpdateExpression: 'REMOVE #map.#key',
        ConditionExpression: '#map.#key = :value',
        ExpressionAttributeNames: { '#map': place.map, '#key': place.key },
        ExpressionAttributeValues: { ':value': value },
      }),
    ),
  );
}

// Timed-role grants.

function grantOf(item: Item): Grant {
  const grant: Grant = {
    member_id: String(item.member_id),
    timedrole_id: String(item.timedrole_id),
    role_id: String(item.role_id),
    due_at: Number(item.due_at),
  };
  if (item.granted_at !== undefined) grant.granted_at = Number(item.granted_at);
  return grant;
}

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
        Item: { ...grantKey(guildId, grant.member_id, grant.timedrole_id), entity: GRANT_ENTITY, ...grant },
        ConditionExpression: mode === 'join' ? 'attribute_not_exists(pk) OR attribute_exists(granted_at)' : 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** What a due grant needs to decide, in one batch read: the grant, its timed role, the module state. */
export async function grantContext(guildId: string, memberId: string, timedRoleId: string) {
  const found = await getNamed({
    grant: grantKey(guildId, memberId, timedRoleId),
    timedRole: timedRoleKey(guildId, timedRoleId),
    state: moduleStateKey(guildId, 'welcoming'),
  });
  return {
    grant: found.grant && grantOf(found.grant),
    timedRole: found.timedRole && (recordOf(found.timedRole) as unknown as TimedRole),
    state: found.state as ModuleStateItem | null,
  };
}

/** Marks a pending grant as done; false when it is gone or already done. */
export function markGranted(guildId: string, memberId: string, timedRoleId: string, now = Date.now()): Promise<boolean> {
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: grantKey(guildId, memberId, timedRoleId),
        UpdateExpression: 'SET granted_at = :now, expires_at = :ttl',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(granted_at)',
        ExpressionAttributeValues: { ':now': now, ':ttl': Math.floor(now / 1000) + GRANTED_KEPT_SECONDS },
      }),
    ),
  );
}

export const deleteGrant = (guildId: string, memberId: string, timedRoleId: string) => deleteItem(grantKey(guildId, memberId, timedRoleId));

/** A member's grants, pending and recently made. */
export const memberGrants = async (guildId: string, memberId: string) => (await itemsUnder(guildId, memberGrantsPrefix(memberId))).map(grantOf);
/** Every grant of the guild. */
export const guildGrants = async (guildId: string) => (await itemsUnder(guildId, GRANT_PREFIX)).map(grantOf);

/** Deletes these grants' items. */
/** Deletes grant items, and in the same batches any other keys given (their due work). */
export const deleteGrants = (guildId: string, grants: readonly Grant[], alsoKeys: readonly Key[] = []) =>
  deleteKeys([...grants.map((g) => grantKey(guildId, g.member_id, g.timedrole_id)), ...alsoKeys]);

/** Removes every item of the module in the guild (responses, timed roles, grants, registry); answers the records among them, oldest first. */
export async function deleteModuleItems(guildId: string): Promise<{ responses: WelcomeResponse[]; timedRoles: TimedRole[]; grants: Grant[] }> {
  const items = await deleteGuildItems(guildId, 'WELCOME#');
  const under = (prefix: string) => items.filter((item) => String(item.sk).startsWith(prefix));
  return {
    responses: under(RESPONSE_PREFIX).map((item) => recordOf(item) as unknown as WelcomeResponse),
    timedRoles: under(TIMEDROLE_PREFIX).map((item) => recordOf(item) as unknown as TimedRole),
    grants: under(GRANT_PREFIX).map(grantOf),
  };
}

/**
 * The tags module's DynamoDB access: the only file issuing its commands.
 * Every item lives in the guild partition `G#<guild>`, so each decision is a
 * strongly consistent read of the base table on a key the caller computes:
 *
 * - A tag: `TAG#ENTRY#<tag_id>`, the record plus its names (`_names`, each
 *   with the claim that holds its pointer) and a `version` every edit bumps.
 *   Tag IDs start with the time, so the tags list newest first by key.
 * - A name pointer: `TAG#NAME#<lower-cased name>` -> the tag holding it,
 *   written only when absent. One pointer per name is what makes names
 *   unique in a guild, case-insensitively, however many requests race.
 * - The count: `TAG#COUNT`, raised under the limit before a tag is written.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.js';
import { conditional } from '#shared/db/errors.js';
import { queryAll } from '#shared/db/pagination.js';
import { tableName } from '#shared/db/table.js';
import { deleteGuildItems, guildKey, recordOf } from '#shared/modules/store.js';
import type { Tag, TagName } from './model.js';

type Item = Record<string, unknown>;
type Key = { pk: string; sk: string };

const TAG_PREFIX = 'TAG#ENTRY#';
const NAME_PREFIX = 'TAG#NAME#';

export const tagKey = (guildId: string, tagId: string): Key => ({ pk: guildKey(guildId), sk: `${TAG_PREFIX}${tagId}` });
export const nameKey = (guildId: string, key: string): Key => ({ pk: guildKey(guildId), sk: `${NAME_PREFIX}${key}` });
const countKey = (guildId: string): Key => ({ pk: guildKey(guildId), sk: 'TAG#COUNT' });

/** A name as the tag item keeps it: its record fields and the claim holding its pointer. */
export interface StoredName {
  id: number;
  name: string;
  created_at: string;
  claim: string;
}

/** A tag as stored: the record, its names, and the version its next edit is conditioned on. */
export interface StoredTag {
  tag: Tag;
  names: StoredName[];
  version: number;
}

/** A name pointer: which tag holds (or is claiming) the name, under which claim, since when. */
export interface NamePointer {
  tag_id: string;
  claim: string;
  claimed_at: number;
}

/** The key a name is unique under: names compare case-insensitively. */
export const nameKeyOf = (name: string) => name.toLowerCase();

export function storedTagOf(item: Item): StoredTag {
  const names = (item._names as StoredName[] | undefined) ?? [];
  return { tag: recordOf(item) as unknown as Tag, names: names.map((n) => ({ ...n, id: Number(n.id) })), version: Number(item.version) };
}

export const pointerOf = (item: Item): NamePointer => ({ tag_id: String(item.tag_id), claim: String(item.claim), claimed_at: Number(item.claimed_at) });

/** The names of a stored tag as records. */
export const nameRecords = (stored: StoredTag): TagName[] =>
  stored.names.map((n) => ({ id: n.id, guild_id: stored.tag.guild_id, tag_id: stored.tag.tag_id, name: n.name, created_at: n.created_at }));

async function getItem(key: Key): Promise<Item | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return out.Item ?? null;
}

export async function getTag(guildId: string, tagId: string): Promise<StoredTag | null> {
  const item = await getItem(tagKey(guildId, tagId));
  return item && storedTagOf(item);
}

export async function getPointer(guildId: string, key: string): Promise<NamePointer | null> {
  const item = await getItem(nameKey(guildId, key));
  return item && pointerOf(item);
}

/** Every tag of the guild, newest first. */
export async function listTags(guildId: string): Promise<StoredTag[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': TAG_PREFIX },
    ScanIndexForward: false,
    ConsistentRead: true,
  });
  return items.map(storedTagOf);
}

// The count: the limit of tags a guild may keep, as a condition on one item.

/** Takes one place under `max`; false when the guild already has `max` tags. */
export const reservePlace = (guildId: string, max: number) =>
  conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: countKey(guildId),
        UpdateExpression: 'SET entity = :entity ADD tags :one',
        ConditionExpression: 'attribute_not_exists(tags) OR tags < :max',
        ExpressionAttributeValues: { ':entity': 'tags_count', ':one': 1, ':max': max },
      }),
    ),
  );

/** Gives a place back (a tag deleted, or a create that did not happen). */
export async function releasePlace(guildId: string): Promise<void> {
  await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: countKey(guildId),
        UpdateExpression: 'ADD tags :minus',
        ConditionExpression: 'tags > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    ),
  );
}

// Name pointers.

/** Writes a name's pointer when no pointer exists; false when one does. */
export const putPointer = (guildId: string, key: string, pointer: NamePointer) =>
  conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...nameKey(guildId, key), entity: 'tags_name', ...pointer },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );

/** Replaces a pointer still held by `stale` (a claim left behind by a crash); false when it changed since. */
export const replacePointer = (guildId: string, key: string, stale: NamePointer, pointer: NamePointer) =>
  conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...nameKey(guildId, key), entity: 'tags_name', ...pointer },
        ConditionExpression: 'claim = :claim',
        ExpressionAttributeValues: { ':claim': stale.claim },
      }),
    ),
  );

/** Deletes a pointer if `claim` still holds it (idempotent). */
export async function deletePointer(guildId: string, key: string, claim: string): Promise<void> {
  await conditional(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: nameKey(guildId, key),
        ConditionExpression: 'claim = :claim',
        ExpressionAttributeValues: { ':claim': claim },
      }),
    ),
  );
}

// Tags.

const tagItem = (stored: StoredTag) => ({
  ...tagKey(stored.tag.guild_id, stored.tag.tag_id),
  entity: 'tags_entry',
  ...stored.tag,
  _names: stored.names,
  version: stored.version,
});

/** Writes a new tag; false if its ID exists. */
export const insertTag = (stored: StoredTag) =>
  conditional(() => db().send(new PutCommand({ TableName: tableName(), Item: tagItem(stored), ConditionExpression: 'attribute_not_exists(pk)' })));

/** Replaces a tag if it is still at `version` (the new one carries version + 1); false when it changed or went. */
export const replaceTag = (stored: StoredTag, version: number) =>
  conditional(() =>
    db().send(
      new PutCommand({ TableName: tableName(), Item: tagItem(stored), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': version } }),
    ),
  );

/** Deletes a tag if it is still at `version`; false when it changed or went. */
export const deleteTagAt = (guildId: string, tagId: string, version: number) =>
  conditional(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: tagKey(guildId, tagId),
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': version },
      }),
    ),
  );

/** Removes every item of the module in the guild (tags, name pointers, the count); answers the tags it held. */
export async function deleteModuleItems(guildId: string): Promise<StoredTag[]> {
  const items = await deleteGuildItems(guildId, 'TAG#');
  return items
    .filter((item) => String(item.sk).startsWith(TAG_PREFIX))
    .map(storedTagOf)
    .reverse();
}

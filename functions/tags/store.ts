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
import { type Item, type Key, entity } from '#shared/db/entity.js';
import { tableName } from '#shared/db/table.js';
import { deleteGuildItems, guildKey } from '#shared/modules/store.js';
import type { Tag, TagName, VisibilityValue } from './model.js';

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

const inGuild = (f: { guildId: string }) => guildKey(f.guildId);

/** Everything the module stores in the guild partition begins with this (the module's reset deletes it all). */
const MODULE_PREFIX = 'TAG#';

export const TagEntity = entity({
  name: 'tags_entry',
  prefix: 'TAG#ENTRY#',
  pk: inGuild,
  sk: (f: { guildId: string; tagId: string }) => [f.tagId],
  parse: (item): StoredTag => {
    const tag: Tag = {
      id: Number(item.id),
      guild_id: String(item.guild_id),
      tag_id: String(item.tag_id),
      content: String(item.content),
      owner_id: String(item.owner_id),
      created_at: String(item.created_at),
      last_update: String(item.last_update),
      visibility: Number(item.visibility) as VisibilityValue,
    };
    const names = (item._names as StoredName[] | undefined) ?? [];
    return { tag, names: names.map((n) => ({ ...n, id: Number(n.id) })), version: Number(item.version) };
  },
});

/** `key`: the name as {@link nameKeyOf} makes it. */
export const NameEntity = entity({
  name: 'tags_name',
  prefix: 'TAG#NAME#',
  pk: inGuild,
  sk: (f: { guildId: string; key: string }) => [f.key],
  parse: (item): NamePointer => ({ tag_id: String(item.tag_id), claim: String(item.claim), claimed_at: Number(item.claimed_at) }),
});

/** The count of the guild's tags (`tags`). */
export const CountEntity = entity({ name: 'tags_count', prefix: 'TAG#COUNT', pk: inGuild, parse: (item) => Number(item.tags) });

/** The names of a stored tag as records. */
export const nameRecords = (stored: StoredTag): TagName[] =>
  stored.names.map((n) => ({ id: n.id, guild_id: stored.tag.guild_id, tag_id: stored.tag.tag_id, name: n.name, created_at: n.created_at }));

async function getItem(key: Key): Promise<Item | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return out.Item ?? null;
}

export async function getTag(guildId: string, tagId: string): Promise<StoredTag | null> {
  const item = await getItem(TagEntity.key({ guildId, tagId }));
  return item && TagEntity.parse(item);
}

export async function getPointer(guildId: string, key: string): Promise<NamePointer | null> {
  const item = await getItem(NameEntity.key({ guildId, key }));
  return item && NameEntity.parse(item);
}

/** Every tag of the guild, newest first. */
export async function listTags(guildId: string): Promise<StoredTag[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': TagEntity.prefix },
    ScanIndexForward: false,
    ConsistentRead: true,
  });
  return items.map(TagEntity.parse);
}

// The count: the limit of tags a guild may keep, as a condition on one item.

/** Takes one place under `max`; false when the guild already has `max` tags. */
export const reservePlace = (guildId: string, max: number) =>
  conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: CountEntity.key({ guildId }),
        UpdateExpression: 'SET entity = :entity ADD tags :one',
        ConditionExpression: 'attribute_not_exists(tags) OR tags < :max',
        ExpressionAttributeValues: { ':entity': CountEntity.name, ':one': 1, ':max': max },
      }),
    ),
  );

/** Gives a place back (a tag deleted, or a create that did not happen). */
export async function releasePlace(guildId: string): Promise<void> {
  await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: CountEntity.key({ guildId }),
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
        Item: NameEntity.item({ guildId, key }, pointer),
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
        Item: NameEntity.item({ guildId, key }, pointer),
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
        Key: NameEntity.key({ guildId, key }),
        ConditionExpression: 'claim = :claim',
        ExpressionAttributeValues: { ':claim': claim },
      }),
    ),
  );
}

// Tags.

const tagItem = (stored: StoredTag) =>
  TagEntity.item({ guildId: stored.tag.guild_id, tagId: stored.tag.tag_id }, { ...stored.tag, _names: stored.names, version: stored.version });

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
        Key: TagEntity.key({ guildId, tagId }),
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': version },
      }),
    ),
  );

/** Removes every item of the module in the guild (tags, name pointers, the count); answers the tags it held. */
export async function deleteModuleItems(guildId: string): Promise<StoredTag[]> {
  const items = await deleteGuildItems(guildId, MODULE_PREFIX);
  return items.filter(TagEntity.holds).map(TagEntity.parse).reverse();
}

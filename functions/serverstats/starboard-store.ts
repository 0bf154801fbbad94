/**
 * Starboard entries in the table. In the guild's partition:
 *
 * | item  | sk                               | holds                                        |
 * |-------|----------------------------------|----------------------------------------------|
 * | entry | `STARBOARD#<original_message_id>` | the record, the author, a claim token         |
 * | post  | `STARPOST#<starboard_message_id>` | the original message ID (a deleted post)      |
 *
 * The entry is claimed with a condition before the post is made, so two
 * checks at once make one post. An entry lives 31 days from
 * `monitoring_start` (`expires_at`); an older one counts as absent and is
 * claimed over. gsi1 (`STARAUTH#<guild>#<author>`) lists the entries of a
 * member's messages, for privacy only.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { deleteKeys } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { conditional, isConditionFailed } from '#shared/db/errors.js';
import { queryAll } from '#shared/db/pagination.js';
import { tableName } from '#shared/db/table.js';
import { type Key, entity, partition } from '#shared/db/entity.js';
import { guildKey } from '#shared/modules/store.js';

export const ENTRY_LIFETIME_MS = 31 * 24 * 3600 * 1000;

export interface StarboardEntry {
  id: number;
  guild_id: string;
  original_message_id: string;
  original_channel_id: string;
  /** Empty while the post is being made. */
  starboard_message_id: string;
  star_count: number;
  monitoring_start: string;
  _author_id: string;
  _claim: string;
  _claimed_at: number;
}

type Item = Record<string, NativeAttributeValue>;
/** The entry of an original message; gsi1 lists an author's entries. */
export const StarboardEntity = entity({
  name: 'starboard_entry',
  prefix: 'STARBOARD#',
  pk: (f: { guildId: string; messageId: string }) => guildKey(f.guildId),
  sk: (f) => [f.messageId],
  parse: (item: Item): StarboardEntry => {
    const { pk: _pk, sk: _sk, entity: _e, gsi1pk: _g, gsi1sk: _s, expires_at: _x, ...rest } = item;
    return rest as StarboardEntry;
  },
});
/** A starboard post -> its `original_message_id` (a deleted post). */
const PostEntity = entity({
  name: 'starboard_post',
  prefix: 'STARPOST#',
  pk: (f: { guildId: string; postId: string }) => guildKey(f.guildId),
  sk: (f) => [f.postId],
  parse: (item) => String(item.original_message_id),
});
const authorPartition = partition<[guildId: string, authorId: string]>('STARAUTH#');

/** The entry's API record (behaviour §11). */
export function entryRecord(entry: StarboardEntry) {
  const { _author_id: _a, _claim: _c, _claimed_at: _t, ...record } = entry;
  return record;
}

const alive = (entry: StarboardEntry, now: number) => Date.parse(entry.monitoring_start) + ENTRY_LIFETIME_MS > now;

/** The live entry of an original message, or null (none, or older than 31 days). */
export async function getEntry(guildId: string, messageId: string, now = Date.now()): Promise<StarboardEntry | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: StarboardEntity.key({ guildId, messageId }), ConsistentRead: true }));
  return liveEntryOf(out.Item, now);
}

/** The entry an item holds, if it is still live (younger than 31 days). */
export function liveEntryOf(item: Item | null | undefined, now = Date.now()): StarboardEntry | null {
  return liveEntry(item ? StarboardEntity.parse(item) : null, now);
}

/** The entry, if it is still live (younger than 31 days). */
export const liveEntry = (entry: StarboardEntry | null, now = Date.now()): StarboardEntry | null => (entry && alive(entry, now) ? entry : null);

/**
 * Claims the entry of a message that has none (or only an expired one, or
 * one whose claimer never made its post within `staleMs`): one conditional
 * write, so of two checks at once exactly one posts. Answers whether this
 * claim won.
 */
export async function claimEntry(entry: StarboardEntry, staleBefore: number): Promise<boolean> {
  const cutoff = new Date(Date.now() - ENTRY_LIFETIME_MS).toISOString();
  const item = StarboardEntity.item(
    { guildId: entry.guild_id, messageId: entry.original_message_id },
    {
      gsi1pk: authorPartition(entry.guild_id, entry._author_id),
      gsi1sk: entry.original_message_id,
      expires_at: Math.floor((Date.parse(entry.monitoring_start) + ENTRY_LIFETIME_MS) / 1000),
      ...entry,
    },
  );
  return conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: item,
        ConditionExpression: 'attribute_not_exists(pk) OR monitoring_start < :cutoff OR (starboard_message_id = :none AND #at < :stale)',
        ExpressionAttributeNames: { '#at': '_claimed_at' },
        ExpressionAttributeValues: { ':cutoff': cutoff, ':none': '', ':stale': staleBefore },
      }),
    ),
  );
}

/** Records the post the claimer made, and its pointer back to the original. */
export async function completeEntry(entry: StarboardEntry, postId: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: StarboardEntity.key({ guildId: entry.guild_id, messageId: entry.original_message_id }),
      UpdateExpression: 'SET starboard_message_id = :post',
      ConditionExpression: '#claim = :claim',
      ExpressionAttributeNames: { '#claim': '_claim' },
      ExpressionAttributeValues: { ':post': postId, ':claim': entry._claim },
    }),
  );
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: PostEntity.item(
        { guildId: entry.guild_id, postId },
        { original_message_id: entry.original_message_id, expires_at: Math.floor((Date.parse(entry.monitoring_start) + ENTRY_LIFETIME_MS) / 1000) },
      ),
    }),
  );
}

/** Sets the star count an entry's post shows. */
export async function setStarCount(guildId: string, messageId: string, count: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: StarboardEntity.key({ guildId, messageId }),
        UpdateExpression: 'SET star_count = :n',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':n': count },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

/** The original message a starboard post was made for, or null. */
export async function originalOfPost(guildId: string, postId: string): Promise<string | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: PostEntity.key({ guildId, postId }), ConsistentRead: true }));
  return out.Item ? PostEntity.parse(out.Item) : null;
}

/** Removes an entry (if it is still there) and its post pointer; answers what it held. */
export async function removeEntry(guildId: string, messageId: string): Promise<StarboardEntry | null> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: StarboardEntity.key({ guildId, messageId }), ReturnValues: 'ALL_OLD' }));
  if (!out.Attributes) return null;
  const entry = StarboardEntity.parse(out.Attributes);
  if (entry.starboard_message_id)
    await db().send(new DeleteCommand({ TableName: tableName(), Key: PostEntity.key({ guildId, postId: entry.starboard_message_id }) }));
  return entry;
}

export async function listStarboardEntries(guildId: string): Promise<StarboardEntry[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': StarboardEntity.prefix },
    ConsistentRead: true,
  });
  return items.map(StarboardEntity.parse).sort((a, b) => b.id - a.id);
}

/** The entries of a member's messages (gsi1; privacy). */
export async function starboardEntriesOfAuthor(guildId: string, authorId: string): Promise<StarboardEntry[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': authorPartition(guildId, authorId) },
  });
  return items.map(StarboardEntity.parse);
}

/** Deletes entries and their post pointers, unconditionally. */
type EntryKeys = Pick<StarboardEntry, 'guild_id' | 'original_message_id' | 'starboard_message_id'>;

/** The items of these entries: each entry and, once posted, its post's pointer. */
export function starboardKeys(entries: EntryKeys[]): Key[] {
  return entries.flatMap((e) => [
    StarboardEntity.key({ guildId: e.guild_id, messageId: e.original_message_id }),
    ...(e.starboard_message_id ? [PostEntity.key({ guildId: e.guild_id, postId: e.starboard_message_id })] : []),
  ]);
}

export function deleteStarboardItems(entries: EntryKeys[]): Promise<void> {
  return deleteKeys(starboardKeys(entries));
}

/**
 * Statistic records in the table: the only file issuing their commands.
 *
 * | item            | pk              | sk                                     | index keys                                |
 * |-----------------|-----------------|----------------------------------------|-------------------------------------------|
 * | record          | `STAT#<guild>`  | `<family>#<time>#<id>`                 | gsi1 by member, gsi2 by channel, gsi3 both |
 * | open presence   | `STAT#<guild>`  | `SESSION#<member>#PRESENCE`            |                                           |
 * | open voice      | `STAT#<guild>`  | `SESSION#<member>#VOICE#<channel>`     |                                           |
 * | pending delete  | `STAT#<guild>`  | `PURGE`                                |                                           |
 *
 * Index keys of a record: `gsi1pk = STATU#<guild>#<member>`,
 * `gsi2pk = STATC#<guild>#<channel>`, `gsi3pk = STATUC#<guild>#<member>#<channel>`,
 * each with the record's own sort key. So:
 * - `days` alone: a range of the guild's partition (base table);
 * - `user_id`: a range of gsi1 (one member's records of one family);
 * - `channel_id`: a range of gsi2; both: a range of gsi3;
 * - privacy: the whole gsi1 partition of the member, every family at once,
 *   and the member's open sessions, one range of the guild's partition;
 * - settings delete: the guild's one partition, every family and open
 *   session at once (one Query a page, not one per family), page by page
 *   on the scheduler behind the answer (`PURGE` holds the delete's time and
 *   how far the removal got; see `purge.ts`). Family paths
 *   are lower case, so no family's range meets the `SESSION#` items, and a
 *   busy guild's writes spread over its families' ranges, which DynamoDB
 *   can split a hot partition along.
 * Every fetch reads only the records it answers. Records expire after 31
 * days (`expires_at`, the table's TTL); `days` is at most 30, so a fetch
 * never meets a record that has expired but not yet been removed.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { deleteKeys, keyOf } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { conditional } from '#shared/db/errors.js';
import { type Key, entity, partition } from '#shared/db/entity.js';
import { tableName } from '#shared/db/table.js';

export type Item = Record<string, NativeAttributeValue>;
export type { Key };

/** Records live 31 days (behaviour §3.6). */
export const RECORD_TTL_SECONDS = 31 * 24 * 3600;

const statPartition = partition<[guildId: string]>('STAT#');
const memberPartition = partition<[guildId: string, memberId: string]>('STATU#');
const channelPartition = partition<[guildId: string, channelId: string]>('STATC#');
const bothPartition = partition<[guildId: string, memberId: string, channelId: string]>('STATUC#');

/** Attributes that are keys and bookkeeping, never part of a record. */
const BOOKKEEPING = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'entity', 'family', 'expires_at'];

export function recordOfItem(item: Item): Item {
  const record = { ...item };
  for (const key of BOOKKEEPING) delete record[key];
  return record;
}

/** A record: its sort key is its family (lower case, so no family meets the sessions), its time and its padded id. */
const StatEntity = entity({
  name: 'stat_record',
  prefix: '',
  pk: (f: { guildId: string; family: string; time: string; id: number }) => statPartition(f.guildId),
  sk: (f) => [f.family, f.time, String(f.id).padStart(16, '0')],
  parse: recordOfItem,
});

/** What a new record is stored with besides its fields. */
export interface NewStat {
  guildId: string;
  family: string;
  id: number;
  /** The record's own time (timestamp, start_time or joined_at): its place in every range. */
  time: string;
  /** The member the record names, when it names one (user_id, member_id, author_id, triggering_user_id). */
  memberId: string | null;
  channelId: string | null;
  record: Item;
}

/** The key of a record, from what its answer shows. */
export const statKey = (guildId: string, family: string, time: string, id: number): Key => StatEntity.key({ guildId, family, time, id });

export function statItem(stat: NewStat): Item {
  const item = StatEntity.item(stat, {
    family: stat.family,
    expires_at: Math.floor(Date.parse(stat.time) / 1000) + RECORD_TTL_SECONDS,
    ...stat.record,
  });
  const sort = String(item.sk);
  if (stat.memberId) Object.assign(item, { gsi1pk: memberPartition(stat.guildId, stat.memberId), gsi1sk: sort });
  if (stat.channelId) Object.assign(item, { gsi2pk: channelPartition(stat.guildId, stat.channelId), gsi2sk: sort });
  if (stat.memberId && stat.channelId) Object.assign(item, { gsi3pk: bothPartition(stat.guildId, stat.memberId, stat.channelId), gsi3sk: sort });
  return item;
}

/** Stores a record: one write. */
export async function putStat(stat: NewStat): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: statItem(stat) }));
}

/** A fetch: which range of which partition, from where. */
export interface StatQuery {
  guildId: string;
  family: string;
  since: string;
  memberId: string | null;
  channelId: string | null;
  limit: number;
  startKey?: Item;
}

/** The index a fetch reads (null: the table) and its partition. */
function querySource(q: Pick<StatQuery, 'guildId' | 'family' | 'memberId' | 'channelId'>): { index: string | null; partition: string } {
  if (q.memberId && q.channelId) return { index: 'gsi3', partition: bothPartition(q.guildId, q.memberId, q.channelId) };
  if (q.memberId) return { index: 'gsi1', partition: memberPartition(q.guildId, q.memberId) };
  if (q.channelId) return { index: 'gsi2', partition: channelPartition(q.guildId, q.channelId) };
  return { index: null, partition: statPartition(q.guildId) };
}

/** A record's place in its family (`<time>#<padded id>`), from a key of a page (LastEvaluatedKey) of that family. */
export const recordPlace = (family: string, key: Item): string => String(key.sk).slice(family.length + 1);

/** The start key of a fetch's next page, after the record at `place`: the table's key, and the index's when the fetch reads one. */
export function startKeyAt(q: Pick<StatQuery, 'guildId' | 'family' | 'memberId' | 'channelId'>, place: string): Item {
  const { index, partition } = querySource(q);
  const sort = `${q.family}#${place}`;
  return { pk: statPartition(q.guildId), sk: sort, ...(index ? { [`${index}pk`]: partition, [`${index}sk`]: sort } : {}) };
}

/** Newest first, at most `limit`, from `startKey`; answers the page and where the next one starts. */
export async function queryStats(q: StatQuery): Promise<{ items: Item[]; lastKey: Item | null }> {
  const { index, partition } = querySource(q);
  const pk = index ? `${index}pk` : 'pk';
  const sk = index ? `${index}sk` : 'sk';
  const from = `${q.family}#${q.since}`;
  const to = `${q.family}#~`;
  // A cursor's next page can start before a later request's `days` window does: nothing of that window is left.
  if (q.startKey && String(q.startKey[sk]) < from) return { items: [], lastKey: null };
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: index ?? undefined,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#pk': pk, '#sk': sk },
      ExpressionAttributeValues: { ':pk': partition, ':from': from, ':to': to },
      ScanIndexForward: false,
      Limit: q.limit,
      ExclusiveStartKey: q.startKey,
    }),
  );
  return { items: (out.Items as Item[] | undefined) ?? [], lastKey: (out.LastEvaluatedKey as Item | undefined) ?? null };
}

// ---- sessions: presence and voice ----------------------------------------------

/** One open activity of a member: what names it, and where its record is. */
export interface OpenActivity {
  activity_type: number;
  name: string;
  time: string;
  id: number;
}

export interface OpenPresence {
  activities: OpenActivity[];
  version: number;
}

/** Every open session of a member is under `SESSION#<member>#` in the guild's statistics partition. */
const SESSION_PREFIX = 'SESSION#';
const PresenceEntity = entity({
  name: 'stat_open_presence',
  prefix: SESSION_PREFIX,
  pk: (f: { guildId: string; memberId: string }) => statPartition(f.guildId),
  sk: (f) => [f.memberId, 'PRESENCE'],
  parse: (item): OpenPresence => ({ activities: (item.activities as OpenActivity[]) ?? [], version: Number(item.version) }),
});
const VoiceEntity = entity({
  name: 'stat_open_voice',
  prefix: SESSION_PREFIX,
  pk: (f: { guildId: string; channelId: string; memberId: string }) => statPartition(f.guildId),
  sk: (f) => [f.memberId, 'VOICE', f.channelId],
  parse: (item) => ({ time: String(item.time), id: Number(item.id) }),
});

export async function getOpenPresence(guildId: string, memberId: string): Promise<OpenPresence | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: PresenceEntity.key({ guildId, memberId }), ConsistentRead: true }));
  return out.Item ? PresenceEntity.parse(out.Item) : null;
}

/** Replaces the member's open activities if they are still the ones read; false when another recording came first. */
export async function writeOpenPresence(guildId: string, memberId: string, activities: OpenActivity[], read: OpenPresence | null): Promise<boolean> {
  const item = PresenceEntity.item(
    { guildId, memberId },
    { member_id: memberId, activities, version: (read?.version ?? 0) + 1, expires_at: Math.floor(Date.now() / 1000) + RECORD_TTL_SECONDS },
  );
  return conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: item,
        ConditionExpression: read ? 'version = :v' : 'attribute_not_exists(pk)',
        ExpressionAttributeValues: read ? { ':v': read.version } : undefined,
      }),
    ),
  );
}

/** Sets an end time on a record that has none yet (`field`: end_time or left_at). */
export async function endRecord(key: Key, field: 'end_time' | 'left_at', time: string): Promise<boolean> {
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET #f = :t',
        ConditionExpression: 'attribute_exists(pk) AND #f = :null',
        ExpressionAttributeNames: { '#f': field },
        ExpressionAttributeValues: { ':t': time, ':null': null },
      }),
    ),
  );
}

/** Notes the member's open voice session in a channel; false when one is open already. */
export async function openVoice(guildId: string, channelId: string, memberId: string, session: { time: string; id: number }): Promise<boolean> {
  return conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: VoiceEntity.item(
          { guildId, channelId, memberId },
          { member_id: memberId, ...session, expires_at: Math.floor(Date.now() / 1000) + RECORD_TTL_SECONDS },
        ),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** Takes the member's open voice session in a channel away, answering it; null when none was open. */
export async function closeVoice(guildId: string, channelId: string, memberId: string): Promise<{ time: string; id: number } | null> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: VoiceEntity.key({ guildId, channelId, memberId }), ReturnValues: 'ALL_OLD' }));
  return out.Attributes ? VoiceEntity.parse(out.Attributes) : null;
}

// ---- privacy and settings delete ------------------------------------------------

/** One page of the records naming a member, every family (gsi1). */
export async function memberRecordsPage(guildId: string, memberId: string, startKey?: Item): Promise<{ items: Item[]; lastKey: Item | null }> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': memberPartition(guildId, memberId) },
      ExclusiveStartKey: startKey,
    }),
  );
  return { items: (out.Items as Item[] | undefined) ?? [], lastKey: (out.LastEvaluatedKey as Item | undefined) ?? null };
}

// ---- a settings delete under way ------------------------------------------------

/** The pending delete of the guild's statistics (behaviour §15; `purge.ts` runs it with the shared removal). */
export const PurgeEntity = entity({
  name: 'stat_purge',
  prefix: 'PURGE',
  pk: (f: { guildId: string }) => statPartition(f.guildId),
  parse: (item) => item,
});

/** The guild's statistics partition, which a delete's removal reads whole. */
export const statPartitionOf = (guildId: string) => statPartition(guildId);

/** When a record was stored: the time in its sort key (`<family>#<time>#<id>`). */
const recordTime = (sk: string) => sk.split('#')[1] ?? '';

/**
 * Whether an item of the partition was stored before `cutoff`: a record by
 * the time in its sort key, an open session by its expiry (written as the
 * time it was stored + 31 days, to the second; a session stored in the
 * delete's own second stays). The pending delete itself is never old.
 */
export function storedBefore(item: Item, cutoff: string): boolean {
  const sk = String(item.sk);
  if (sk === PurgeEntity.prefix) return false;
  if (sk.startsWith(SESSION_PREFIX)) return Number(item.expires_at) < Math.floor(Date.parse(cutoff) / 1000) + RECORD_TTL_SECONDS;
  return recordTime(sk) < cutoff;
}

/** The keys of the member's open presence and voice sessions (privacy): one range of the guild's partition. */
export async function memberSessionKeys(guildId: string, memberId: string): Promise<Key[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': statPartition(guildId), ':prefix': PresenceEntity.under(memberId) },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    }),
  );
  return ((out.Items as Item[] | undefined) ?? []).map(keyOf);
}

export { deleteKeys };

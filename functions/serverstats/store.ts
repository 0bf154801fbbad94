/**
 * Statistic records in the table, through their entities (nothing else touches their items).
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
import type { CursorScope } from '#shared/db/cursor.js';
import { type Item, type Key, entity, partition } from '#shared/db/entity.js';

export type { Item, Key };

/** Records live 31 days (behaviour §3.6). */
export const RECORD_TTL_SECONDS = 31 * 24 * 3600;

/** The guild's statistics partition: single records, batched packs and their filed copies. */
export const statPartition = partition<[guildId: string]>('STAT#');
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

/** Where a record is stored: its family, its own time and its id (its sort key). */
export interface StatPlace {
  family: string;
  time: string;
  id: number;
}

/** A record as read back: where it is, and the record itself. */
export interface StoredStat extends StatPlace {
  record: Item;
}

const inStats = (f: { guildId: string }) => statPartition(f.guildId);

/**
 * A record: its sort key is its family (lower case, so no family meets the
 * sessions), its time and its padded id; each index key carries the same
 * sort key, so every index has the families' ranges the table has.
 */
const StatEntity = entity({
  name: 'stat_record',
  prefix: '',
  pk: inStats,
  sk: (f: { guildId: string } & StatPlace) => [f.family, f.time, String(f.id).padStart(16, '0')],
  parse: (item): StoredStat => {
    const [family = '', time = '', id = ''] = String(item.sk).split('#');
    return { family, time, id: Number(id), record: recordOfItem(item) };
  },
  indexes: {
    gsi1: { pk: (f: { guildId: string; memberId: string }) => memberPartition(f.guildId, f.memberId), prefix: '' },
    gsi2: { pk: (f: { guildId: string; channelId: string }) => channelPartition(f.guildId, f.channelId), prefix: '' },
    gsi3: { pk: (f: { guildId: string; memberId: string; channelId: string }) => bothPartition(f.guildId, f.memberId, f.channelId), prefix: '' },
  },
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

/** A record's attributes besides its key: its index keys (each with its own sort key), family, expiry and fields. */
function statAttributes(stat: NewStat): Item {
  const sort = StatEntity.key(stat).sk;
  const { memberId, channelId } = stat;
  return {
    family: stat.family,
    expires_at: Math.floor(Date.parse(stat.time) / 1000) + RECORD_TTL_SECONDS,
    ...stat.record,
    ...(memberId ? { gsi1pk: memberPartition(stat.guildId, memberId), gsi1sk: sort } : {}),
    ...(channelId ? { gsi2pk: channelPartition(stat.guildId, channelId), gsi2sk: sort } : {}),
    ...(memberId && channelId ? { gsi3pk: bothPartition(stat.guildId, memberId, channelId), gsi3sk: sort } : {}),
  };
}

/** The item a record is stored as (the seeds of tests and the bench write many at once). */
export const statItem = (stat: NewStat): Item => StatEntity.item(stat, statAttributes(stat));

/** Stores a record: one write. */
export async function putStat(stat: NewStat): Promise<void> {
  await StatEntity.put(stat, statAttributes(stat));
}

/** A fetch: which range of which partition (the filters pick the index). */
export interface StatQuery {
  guildId: string;
  family: string;
  since: string;
  memberId: string | null;
  channelId: string | null;
}

/** The list a fetch's cursors are signed for: the guild, the family and the filters. */
export const scopeOf = (q: StatQuery): CursorScope => ({ guildId: q.guildId, family: q.family, filter: { user_id: q.memberId, channel_id: q.channelId } });

/** A record's place in a fetch's order (newest first: time, then id, both descending). */
export interface StatPosition {
  time: string;
  id: number;
}

/** Whether `a` comes after `b` in a fetch's order (older, or as old with a lower id). */
export const isAfter = (a: StatPosition, b: StatPosition) => a.time < b.time || (a.time === b.time && a.id < b.id);

/**
 * The newest `limit` single records of a fetch after `after` (null: from
 * the newest), on the table's range or the index's the filters name.
 */
export async function singleStatsAfter(q: StatQuery, after: StatPosition | null, limit: number): Promise<StoredStat[]> {
  const { guildId, memberId, channelId } = q;
  // A cursor from before the window (a shorter `days` than its page's): nothing follows it (DynamoDB refuses a range that ends before it starts).
  if (after && after.time < q.since) return [];
  // `to` takes the cursor's own record too: one more is read, and it is dropped.
  const range = {
    under: [q.family],
    from: `${q.family}#${q.since}`,
    ...(after ? { to: statKey(guildId, q.family, after.time, after.id).sk } : {}),
    reverse: true,
    limit: limit + 1,
  };
  const read =
    memberId && channelId
      ? await StatEntity.index('gsi3').query({ guildId, memberId, channelId }, range)
      : memberId
        ? await StatEntity.index('gsi1').query({ guildId, memberId }, range)
        : channelId
          ? await StatEntity.index('gsi2').query({ guildId, channelId }, range)
          : await StatEntity.query({ guildId }, range);
  return (after ? read.filter((stat) => isAfter(stat, after)) : read).slice(0, limit);
}

/** The newest record of a family since `since`, on the table; null when there is none. */
export async function latestStat(guildId: string, family: string, since: string): Promise<StoredStat | null> {
  const [latest] = await StatEntity.query({ guildId }, { under: [family], from: `${family}#${since}`, reverse: true, limit: 1 });
  return latest ?? null;
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
  pk: inStats,
  sk: (f: { guildId: string; memberId: string }) => [f.memberId, 'PRESENCE'],
  parse: (item): OpenPresence => ({ activities: (item.activities as OpenActivity[]) ?? [], version: Number(item.version) }),
});
const VoiceEntity = entity({
  name: 'stat_open_voice',
  prefix: SESSION_PREFIX,
  pk: inStats,
  sk: (f: { guildId: string; channelId: string; memberId: string }) => [f.memberId, 'VOICE', f.channelId],
  parse: (item) => ({ channelId: String(item.sk).split('#').at(-1) ?? '', time: String(item.time), id: Number(item.id) }),
});

/** A session's expiry: 31 days from when it was stored, to the second (the settings delete's removal reads it as the time stored). */
const sessionExpiry = () => Math.floor(Date.now() / 1000) + RECORD_TTL_SECONDS;

export function getOpenPresence(guildId: string, memberId: string): Promise<OpenPresence | null> {
  return PresenceEntity.get({ guildId, memberId });
}

/** Replaces the member's open activities if they are still the ones read; false when another recording came first. */
export function writeOpenPresence(guildId: string, memberId: string, activities: OpenActivity[], read: OpenPresence | null): Promise<boolean> {
  return PresenceEntity.put(
    { guildId, memberId },
    { member_id: memberId, activities, version: (read?.version ?? 0) + 1, expires_at: sessionExpiry() },
    read ? { condition: { version: read.version } } : { ifAbsent: true },
  );
}

/** Sets an end time on a record that has none yet (`field`: end_time or left_at). */
export function endRecord(guildId: string, place: StatPlace, field: 'end_time' | 'left_at', time: string): Promise<boolean> {
  return StatEntity.update({ guildId, ...place }, { set: { [field]: time }, condition: { pk: { exists: true }, [field]: { eq: null } }, returnValues: 'NONE' });
}

/** Notes the member's open voice session in a channel; false when one is open already. */
export function openVoice(guildId: string, channelId: string, memberId: string, session: { time: string; id: number }): Promise<boolean> {
  return VoiceEntity.put({ guildId, channelId, memberId }, { member_id: memberId, ...session, expires_at: sessionExpiry() }, { ifAbsent: true });
}

/** Takes the member's open voice session in a channel away, answering it; null when none was open. */
export function closeVoice(guildId: string, channelId: string, memberId: string): Promise<{ time: string; id: number } | null> {
  return VoiceEntity.delete({ guildId, channelId, memberId }, { returnOld: true });
}

// ---- privacy and settings delete ------------------------------------------------

/** The records naming a member, every family (gsi1). */
export function memberRecords(guildId: string, memberId: string): Promise<StoredStat[]> {
  return StatEntity.index('gsi1').query({ guildId, memberId });
}

/** Deletes these records of the guild and the member's open sessions (privacy): the sessions are one range of the guild's partition. */
export async function deleteMemberStats(guildId: string, memberId: string, records: readonly StatPlace[]): Promise<void> {
  const voice = await VoiceEntity.query({ guildId }, { under: [memberId, 'VOICE'] });
  await Promise.all([
    StatEntity.deleteMany(records.map((place) => ({ guildId, ...place }))),
    VoiceEntity.deleteMany(voice.map(({ channelId }) => ({ guildId, channelId, memberId }))),
    PresenceEntity.deleteMany([{ guildId, memberId }]),
  ]);
}

// ---- a settings delete under way ------------------------------------------------

/** The pending delete of the guild's statistics (behaviour §15; `purge.ts` runs it with the shared removal). */
export const PurgeEntity = entity({
  name: 'stat_purge',
  prefix: 'PURGE',
  pk: inStats,
  parse: (item) => item,
});

/** The guild's statistics partition, which a delete's removal reads whole. */
export const statPartitionOf = (guildId: string) => statPartition(guildId);

/** The sort-key prefix of packed records (batches, `packs.ts`). */
export const PACK_PREFIX = 'PACK#';

/** The sort-key prefixes of batched records filed by member and channel, and of the hours due for filing (`filing.ts`). */
export const FILED_PREFIX = 'FILED#';
export const FILING_PREFIX = 'FILING#';
/** An hour's item lives as long as the last pack that may hold a record of the hour: it expires as a record this long after the hour's start would. */
export const FILING_TTL_AFTER_MS = 75 * 60_000;

/** When a pack's records were stored, for a settings delete's removal: its newest record's time (`PACK#<family>#<time>#<id>`). */
export const packTime = (sk: string) => sk.slice(PACK_PREFIX.length).split('#')[1] ?? '';

/** When a record was stored: the time in its sort key (`<family>#<time>#<id>`). */
const recordTime = (sk: string) => sk.split('#')[1] ?? '';

/**
 * Whether an item of the partition was stored before `cutoff`: a record by
 * the time in its sort key, a pack by its newest record's time, an open
 * session by its expiry (written as the
 * time it was stored + 31 days, to the second; a session stored in the
 * delete's own second stays), a filed item by its newest record, an hour due
 * for filing once no pack can hold a record of it. The pending delete itself
 * is never old.
 */
export function storedBefore(item: Item, cutoff: string): boolean {
  const sk = String(item.sk);
  if (sk === PurgeEntity.prefix) return false;
  if (sk.startsWith(SESSION_PREFIX)) return Number(item.expires_at) < Math.floor(Date.parse(cutoff) / 1000) + RECORD_TTL_SECONDS;
  // A pack whose newest record is before the cutoff; older records of a pack across it are hidden by data_since until they expire.
  if (sk.startsWith(PACK_PREFIX)) return packTime(sk) < cutoff;
  // A filed item by its newest record, an hour's item by the last pack of the hour (both from the expiry, to the second).
  if (sk.startsWith(FILED_PREFIX) || sk.startsWith(FILING_PREFIX)) return (Number(item.expires_at) - RECORD_TTL_SECONDS + 1) * 1000 <= Date.parse(cutoff);
  return recordTime(sk) < cutoff;
}

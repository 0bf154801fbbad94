/**
 * The socials module's table access: the only file issuing its commands.
 *
 * | item           | pk                         | sk                                   |
 * |----------------|----------------------------|--------------------------------------|
 * | entry          | `G#<guild>`                | `SOCIAL#<kind>#<id>#<channel>`       |
 * | entries taken  | `G#<guild>`                | `SOCIALCOUNT#<kind>`                 |
 * | source         | `SRC#<kind>#<id>`          | `SOURCE`                             |
 * | watcher        | `SRC#<kind>#<id>`          | `W#<guild>#<channel>`                |
 * | sources of kind| `SRCKIND#<kind>` (stream: `SRCKIND#stream#<bucket>`) | `<id>`     |
 * | playlist       | `SRCPLAYLIST#<uploads id>` | `SOURCE` (-> the video handle)       |
 * | delivery mark  | `SOCIALPOST#<channel>`     | `<kind>#<id>#<item>` or `LINK#<link>`|
 *
 * `<id>` is the identifier as compared (kinds.ts), and for a feed, whose URL
 * may be 2048 characters, its fixed-size key (`fixedKey`); `<item>` and
 * `<link>` are always fixed-size keys of the item's key and link, which a
 * feed's author chooses, of any length. A source is polled once
 * however many guilds watch it; its watchers are read from its own
 * partition, strongly consistent. A delivery mark is claimed with a
 * condition before the message is posted, so one channel gets one message
 * per item whoever delivers it; marks live 30 days.
 */
import { GetCommand, PutCommand, UpdateCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { deleteKeys, getKeys, writeBatches } from '#shared/db/batch.js';
import { fixedKey } from '#shared/db/fixed-key.js';
import { db } from '#shared/db/client.js';
import { conditional } from '#shared/db/errors.js';
import { countAll, queryAll } from '#shared/db/pagination.js';
import { type Key, entity, partition } from '#shared/db/entity.js';
import { tableName } from '#shared/db/table.js';
import { transact } from '#shared/db/transact.js';
import { ModuleState, deleteGuildItems, guildKey, moduleStateKey } from '#shared/modules/store.js';
import { shardOf } from '#shared/scheduler/keys.js';
import { KINDS, type Kind } from './kinds.js';

type Item = Record<string, NativeAttributeValue>;

export const MARK_TTL_SECONDS = 30 * 24 * 3600;

export interface Entry {
  id: number;
  guild_id: string;
  kind: Kind;
  /** The identifier as compared. */
  ident: string;
  /** The identifier as the guild wrote it. */
  identifier: string;
  target_channel_id: string;
  mention_everyone: boolean;
  created_at: string;
}

export interface Source {
  kind: Kind;
  ident: string;
  /** The identifier as first written. */
  identifier: string;
  /** Fixed-size keys (`seenKey`) of the items seen lately, newest first, at most `SEEN_MAX` (polling.ts): never announced again. */
  seen: string[];
  /** The newest item's link or title (rss), or video ID (video). */
  latest: string | null;
  etag: string | null;
  last_modified: string | null;
  failures: number;
  next_poll_at: string | null;
  uploads_playlist_id: string | null;
  /** Stream: the live session last announced, and since when (epoch ms). */
  live_session: string | null;
  live_since: number | null;
  version: number;
}

export interface Watcher {
  guild_id: string;
  channel_id: string;
  mention_everyone: boolean;
}

/** An identifier as it stands in keys: a feed URL (up to 2048 characters) as its fixed-size key, the short kinds as they are. */
export const identKey = (kind: Kind, ident: string) => (kind === 'rss' ? fixedKey(ident) : ident);
/** What a source remembers of an item, and its delivery marks are keyed by: a fixed-size key of the item's key. */
export const seenKey = (itemKey: string) => fixedKey(itemKey);
/** The delivery mark of an item of a source in a channel. */
export const itemMark = (kind: Kind, ident: string, itemKey: string) => `${kind}#${identKey(kind, ident)}#${seenKey(itemKey)}`;
/** The delivery mark of a link (normalised) in a channel, shared by every feed and forum carrying it. */
export const linkMark = (link: string) => `LINK#${fixedKey(link)}`;

/** Every item of the module in a guild's partition (entries and their counts) has a sort key starting with this. */
const MODULE_PREFIX = 'SOCIAL';
const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

/** A guild's entry: `under(kind)` lists a kind's, `under(kind, identKey(...))` an identifier's. */
export const EntryEntity = entity({
  name: 'social_entry',
  prefix: 'SOCIAL#',
  pk: (f: { guildId: string; kind: Kind; ident: string; channelId: string }) => guildKey(f.guildId),
  sk: (f) => [f.kind, identKey(f.kind, f.ident), f.channelId],
  parse: (item): Entry => {
    const kind = item._kind as Kind;
    return {
      id: Number(item.id),
      guild_id: String(item.guild_id),
      kind,
      ident: String(item._ident),
      identifier: String(item[KINDS[kind].field]),
      target_channel_id: String(item.target_channel_id),
      mention_everyone: Boolean(item.mention_everyone),
      created_at: String(item.created_at),
    };
  },
});
const entryKey = (e: Pick<Entry, 'guild_id' | 'kind' | 'ident' | 'target_channel_id'>) =>
  EntryEntity.key({ guildId: e.guild_id, kind: e.kind, ident: e.ident, channelId: e.target_channel_id });
/** The guild's places taken for a kind (`taken`). */
const CountEntity = entity({
  name: 'social_entry_count',
  prefix: 'SOCIALCOUNT#',
  pk: (f: { guildId: string; kind: Kind }) => guildKey(f.guildId),
  sk: (f) => [f.kind],
  parse: (item) => Number(item.taken ?? 0),
});

const sourcePartitionOf = partition<[kind: Kind, identKey: string]>('SRC#');
/** A source's partition, holding the source and its watchers. */
export const sourcePartition = (kind: Kind, ident: string) => sourcePartitionOf(kind, identKey(kind, ident));
const SourceEntity = entity({
  name: 'social_source',
  prefix: 'SOURCE',
  pk: (f: { kind: Kind; ident: string }) => sourcePartition(f.kind, f.ident),
  parse: (item): Source => ({
    kind: item.kind as Kind,
    ident: String(item.ident),
    identifier: String(item.identifier),
    seen: (item.seen as string[] | undefined) ?? [],
    latest: text(item.latest),
    etag: text(item.etag),
    last_modified: text(item.last_modified),
    failures: Number(item.failures ?? 0),
    next_poll_at: text(item.next_poll_at),
    uploads_playlist_id: text(item.uploads_playlist_id),
    live_session: text(item.live_session),
    live_since: item.live_since === null || item.live_since === undefined ? null : Number(item.live_since),
    version: Number(item.version),
  }),
});
const WatcherEntity = entity({
  name: 'social_watcher',
  prefix: 'W#',
  pk: (f: { kind: Kind; ident: string; guildId: string; channelId: string }) => sourcePartition(f.kind, f.ident),
  sk: (f) => [f.guildId, f.channelId],
  parse: (item): Watcher => ({ guild_id: String(item.guild_id), channel_id: String(item.channel_id), mention_everyone: Boolean(item.mention_everyone) }),
});

/**
 * The stream accounts' list is kept in this many partitions (buckets, by a
 * stable hash of the account); a shard of the polling reads a share of them
 * (polling.ts), so shards can grow up to this many without moving an item.
 */
export const STREAM_BUCKETS = 8;
export const streamBucketOf = (account: string) => shardOf(account, STREAM_BUCKETS);
const kindList = partition<[kind: Kind] | [kind: 'stream', shard: string]>('SRCKIND#');
/** The list a source is on: a stream account's shard, or its kind; its sort key is the identifier's key. */
const SourceOfKindEntity = entity({
  name: 'social_source_of_kind',
  prefix: '',
  pk: (f: { kind: Kind; ident: string }) => (f.kind === 'stream' ? kindList('stream', String(streamBucketOf(f.ident))) : kindList(f.kind)),
  sk: (f) => [identKey(f.kind, f.ident)],
  parse: (item) => String(item.sk),
});
const playlistPartition = partition<[uploads: string]>('SRCPLAYLIST#');
/** A video channel's uploads playlist -> its handle (`ident`). */
const PlaylistEntity = entity({
  name: 'social_playlist',
  prefix: 'SOURCE',
  pk: (f: { uploads: string }) => playlistPartition(f.uploads),
  parse: (item) => String(item.ident),
});
const markPartition = partition<[channelId: string]>('SOCIALPOST#');
/** A delivery mark of a channel: its sort key is the mark ({@link itemMark}, {@link linkMark}). */
const MarkEntity = entity({
  name: 'social_mark',
  prefix: '',
  pk: (f: { channelId: string; mark: string }) => markPartition(f.channelId),
  sk: (f) => [f.mark],
  parse: (item) => String(item.state),
});

// ---- entries ------------------------------------------------------------------------

/**
 * An entry's item holds its record as the snapshots of module state list it
 * (`community`, `rss_feed` ... by kind), plus `_kind` and `_ident`, which
 * no record shows.
 */
function entryItem(entry: Entry): Item {
  const { kind, ident, identifier, ...record } = entry;
  return EntryEntity.item(
    { guildId: entry.guild_id, kind, ident, channelId: entry.target_channel_id },
    { ...record, [KINDS[kind].field]: identifier, _kind: kind, _ident: ident },
  );
}

/** Stores an entry; false when the guild already watches this identifier in that channel. */
export function insertEntry(entry: Entry): Promise<boolean> {
  const item = entryItem(entry);
  return conditional(() => db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' })));
}

/** A guild's entries of a kind (of one identifier when given), read consistently. */
export async function listEntries(guildId: string, kind: Kind, ident?: string): Promise<Entry[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': guildKey(guildId),
      ':prefix': ident === undefined ? EntryEntity.under(kind) : EntryEntity.under(kind, identKey(kind, ident)),
    },
    ConsistentRead: true,
  });
  return items.map(EntryEntity.parse);
}

export function deleteEntries(entries: Entry[]): Promise<void> {
  return deleteKeys(entries.map(entryKey));
}

/** Takes one of the guild's places for a kind while fewer than `max` are taken. */
export function takeEntrySlot(guildId: string, kind: Kind, max: number): Promise<boolean> {
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: CountEntity.key({ guildId, kind }),
        UpdateExpression: 'ADD #n :one SET entity = :entity',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
        ExpressionAttributeNames: { '#n': 'taken' },
        ExpressionAttributeValues: { ':one': 1, ':max': max, ':entity': CountEntity.name },
      }),
    ),
  );
}

export async function giveEntrySlots(guildId: string, kind: Kind, count: number): Promise<void> {
  if (count <= 0) return;
  await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: CountEntity.key({ guildId, kind }),
        UpdateExpression: 'ADD #n :minus',
        ConditionExpression: '#n >= :count',
        ExpressionAttributeNames: { '#n': 'taken' },
        ExpressionAttributeValues: { ':minus': -count, ':count': count },
      }),
    ),
  );
}

// ---- sources and watchers ------------------------------------------------------------

export async function getSource(kind: Kind, ident: string): Promise<Source | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: SourceEntity.key({ kind, ident }), ConsistentRead: true }));
  return out.Item ? SourceEntity.parse(out.Item) : null;
}

export async function getSources(keys: { kind: Kind; ident: string }[]): Promise<Map<string, Source>> {
  const found = await getKeys(keys.map(SourceEntity.key));
  return new Map(found.map((item) => [String(item.pk), SourceEntity.parse(item)]));
}

/** Stores a new source with its baseline; false when it exists already (another guild watches it). */
export async function insertSource(source: Source): Promise<boolean> {
  const created = await conditional(() =>
    db().send(new PutCommand({ TableName: tableName(), Item: SourceEntity.item(source, source), ConditionExpression: 'attribute_not_exists(pk)' })),
  );
  if (created) {
    await db().send(new PutCommand({ TableName: tableName(), Item: SourceOfKindEntity.item(source, {}) }));
    if (source.uploads_playlist_id) {
      await db().send(new PutCommand({ TableName: tableName(), Item: PlaylistEntity.item({ uploads: source.uploads_playlist_id }, { ident: source.ident }) }));
    }
  }
  return created;
}

/** Replaces a source read at `source.version`; false when another poll wrote it first. */
export function replaceSource(source: Source): Promise<boolean> {
  const next = { ...source, version: source.version + 1 };
  return conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: SourceEntity.item(source, next),
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': source.version },
      }),
    ),
  );
}

/** Forgets a source no guild watches any more (its watchers are gone). */
export async function deleteSource(source: Pick<Source, 'kind' | 'ident' | 'uploads_playlist_id'>): Promise<void> {
  const keys: Key[] = [SourceEntity.key(source), SourceOfKindEntity.key(source)];
  if (source.uploads_playlist_id) keys.push(PlaylistEntity.key({ uploads: source.uploads_playlist_id }));
  await deleteKeys(keys);
}

const bucketQuery = (bucket: number) => ({
  KeyConditionExpression: 'pk = :pk',
  ExpressionAttributeValues: { ':pk': kindList('stream', String(bucket)) },
  ConsistentRead: true,
});

/** How many stream accounts are watched, over every bucket. */
export async function streamAccountCount(): Promise<number> {
  const counts = await Promise.all(Array.from({ length: STREAM_BUCKETS }, (_, bucket) => countAll(bucketQuery(bucket))));
  return counts.reduce((sum, n) => sum + n, 0);
}

/** The stream accounts of the buckets given (`streamBucketOf`). */
export async function streamAccountsOfBuckets(buckets: readonly number[]): Promise<string[]> {
  const lists = await Promise.all(buckets.map(async (bucket) => (await queryAll(bucketQuery(bucket))).map(SourceOfKindEntity.parse)));
  return lists.flat();
}

export async function videoHandleOfPlaylist(uploads: string): Promise<string | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: PlaylistEntity.key({ uploads }), ConsistentRead: true }));
  return out.Item ? PlaylistEntity.parse(out.Item) : null;
}

export async function putWatcher(kind: Kind, ident: string, watcher: Watcher): Promise<void> {
  await db().send(
    new PutCommand({ TableName: tableName(), Item: WatcherEntity.item({ kind, ident, guildId: watcher.guild_id, channelId: watcher.channel_id }, watcher) }),
  );
}

export function deleteWatchers(kind: Kind, ident: string, watchers: Pick<Watcher, 'guild_id' | 'channel_id'>[]): Promise<void> {
  return deleteKeys(watchers.map((w) => WatcherEntity.key({ kind, ident, guildId: w.guild_id, channelId: w.channel_id })));
}

/** Every guild channel watching a source, read strongly consistently. */
export async function watchersOf(kind: Kind, ident: string): Promise<Watcher[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :w)',
    ExpressionAttributeValues: { ':pk': sourcePartition(kind, ident), ':w': WatcherEntity.prefix },
    ConsistentRead: true,
  });
  return items.map(WatcherEntity.parse);
}

/** The watchers whose guild has the module and this kind's component on, of those given when the caller has read them already. */
export async function activeWatchersOf(kind: Kind, ident: string, read?: Watcher[]): Promise<Watcher[]> {
  const watchers = read ?? (await watchersOf(kind, ident));
  const guilds = [...new Set(watchers.map((w) => w.guild_id))];
  const states = await getKeys(guilds.map((g) => moduleStateKey(g, 'socials')));
  const on = new Set(
    states
      .filter((s) => {
        const state = ModuleState.parse(s);
        return state.enabled && state.settings?.[KINDS[kind].toggle] === true;
      })
      .map((s) => String(s.pk).slice(guildKey.prefix.length)),
  );
  return watchers.filter((w) => on.has(w.guild_id));
}

// ---- delivery marks ----------------------------------------------------------------------

/** A mark may be claimed when it is absent, or claimed by a delivery that never settled it and whose lease passed. */
const claimCondition = (now: number) => ({
  ConditionExpression: 'attribute_not_exists(pk) OR (#s = :claimed AND lease_until < :now)',
  ExpressionAttributeNames: { '#s': 'state' },
  ExpressionAttributeValues: { ':claimed': 'claimed', ':now': now },
});

const CLAIM_BUSY = 'The announcement is being delivered by another run at this moment; it is offered again shortly.';

/**
 * Claims the delivery of an item to a channel: one conditional request
 * taking every mark given (the item's, and its link's), all or none. A mark
 * is free when it is absent or when a claim on it was never settled and its
 * lease passed; a post under a taken-over claim carries the same nonce, so
 * the platform still makes one message. Answers false when a mark is held
 * (posted, refused, or claimed by a delivery still under way).
 */
export async function claimDelivery(channelId: string, marks: readonly string[], leaseMs: number): Promise<boolean> {
  const now = Date.now();
  const items = marks.map((mark) =>
    MarkEntity.item({ channelId, mark }, { state: 'claimed', lease_until: now + leaseMs, expires_at: Math.floor(now / 1000) + MARK_TTL_SECONDS }),
  );
  if (items.length === 1) {
    return conditional(() => db().send(new PutCommand({ TableName: tableName(), Item: items[0]!, ...claimCondition(now) })));
  }
  return (
    (await transact(
      items.map((Item) => ({ Put: { TableName: tableName(), Item, ...claimCondition(now) } })),
      CLAIM_BUSY,
    )) === null
  );
}

/** A settled mark's state; null releases it. */
export type MarkState = 'posted' | 'refused' | null;

/** A claimed mark of a channel and the state its delivery ended in. */
export interface Settled {
  channelId: string;
  mark: string;
  state: MarkState;
}

/**
 * Settles claimed marks, of any channels, in batch writes of 25: each mark
 * given a state is kept with it (posted or refused: never taken over
 * again), each given null is released (its delivery may be tried again). A
 * settle follows its own claim, so it writes without a condition.
 */
export async function settleMarks(settled: readonly Settled[]): Promise<void> {
  const expires_at = Math.floor(Date.now() / 1000) + MARK_TTL_SECONDS;
  await writeBatches(
    settled.flatMap(({ channelId, mark, state }) => (state ? [MarkEntity.item({ channelId, mark }, { state, expires_at })] : [])),
    settled.flatMap(({ channelId, mark, state }) => (state ? [] : [MarkEntity.key({ channelId, mark })])),
  );
}

/** Removes every item of the module in a guild's partition (entries and their counts: sort keys starting with SOCIAL); answers the entries. */
export async function deleteGuildEntries(guildId: string): Promise<Entry[]> {
  return (await deleteGuildItems(guildId, MODULE_PREFIX)).filter((item) => item.entity === EntryEntity.name).map(EntryEntity.parse);
}

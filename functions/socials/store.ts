/**
 * The socials module's stored items and the operations on them (through its entities).
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
import { fixedKey } from '#shared/db/fixed-key.js';
import { entity, partition } from '#shared/db/entity.js';
import { transact } from '#shared/db/transact.js';
import { ModuleState, deleteGuildItems, guildKey } from '#shared/modules/store.js';
import { shardOf } from '#shared/scheduler/keys.js';
import { KINDS, type Kind } from './kinds.js';

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
  pk: (f: { guildId: string }) => guildKey(f.guildId),
  sk: (f: { guildId: string; kind: Kind; ident: string; channelId: string }) => [f.kind, identKey(f.kind, f.ident), f.channelId],
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
const entryFields = (e: Pick<Entry, 'guild_id' | 'kind' | 'ident' | 'target_channel_id'>) => ({
  guildId: e.guild_id,
  kind: e.kind,
  ident: e.ident,
  channelId: e.target_channel_id,
});
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
  pk: (f: { kind: Kind; ident: string }) => sourcePartition(f.kind, f.ident),
  sk: (f: { kind: Kind; ident: string; guildId: string; channelId: string }) => [f.guildId, f.channelId],
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
/** A list of sources: a kind's, or (streams) a bucket's. */
type SourceList = { kind: Exclude<Kind, 'stream'> } | { kind: 'stream'; bucket: number };
/** The list a source is on: a stream account's bucket, or its kind. */
const listOf = (kind: Kind, ident: string): SourceList => (kind === 'stream' ? { kind, bucket: streamBucketOf(ident) } : { kind });
/** A source on its list: its sort key is the identifier's key. */
const SourceOfKindEntity = entity({
  name: 'social_source_of_kind',
  prefix: '',
  pk: (f: SourceList) => (f.kind === 'stream' ? kindList('stream', String(f.bucket)) : kindList(f.kind)),
  sk: (f: SourceList & { ident: string }) => [identKey(f.kind, f.ident)],
  parse: (item) => String(item.sk),
});
const onList = (source: Pick<Source, 'kind' | 'ident'>) => ({ ...listOf(source.kind, source.ident), ident: source.ident });
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
  pk: (f: { channelId: string }) => markPartition(f.channelId),
  sk: (f: { channelId: string; mark: string }) => [f.mark],
  parse: (item) => String(item.state),
});

// ---- entries ------------------------------------------------------------------------

/**
 * An entry's item holds its record as the snapshots of module state list it
 * (`community`, `rss_feed` ... by kind), plus `_kind` and `_ident`, which
 * no record shows.
 */
function entryAttributes(entry: Entry) {
  const { kind, ident, identifier, ...record } = entry;
  return { ...record, [KINDS[kind].field]: identifier, _kind: kind, _ident: ident };
}

/** Stores an entry; false when the guild already watches this identifier in that channel. */
export const insertEntry = (entry: Entry) => EntryEntity.put(entryFields(entry), entryAttributes(entry), { ifAbsent: true });

/** A guild's entries of a kind (of one identifier when given), read consistently. */
export const entriesOf = (guildId: string, kind: Kind, ident?: string) =>
  EntryEntity.query({ guildId }, { under: ident === undefined ? [kind] : [kind, identKey(kind, ident)] });

export const deleteEntries = (entries: Entry[]) => EntryEntity.deleteMany(entries.map(entryFields));

/** Takes one of the guild's places for a kind while fewer than `max` are taken. */
export const takeEntrySlot = (guildId: string, kind: Kind, max: number) =>
  CountEntity.update(
    { guildId, kind },
    { add: { taken: 1 }, condition: { $or: [{ taken: { exists: false } }, { taken: { lt: max } }] }, returnValues: 'NONE' },
  );

export async function giveEntrySlots(guildId: string, kind: Kind, count: number): Promise<void> {
  if (count <= 0) return;
  await CountEntity.update({ guildId, kind }, { add: { taken: -count }, condition: { taken: { ge: count } }, returnValues: 'NONE' });
}

// ---- sources and watchers ------------------------------------------------------------

export const getSource = (kind: Kind, ident: string) => SourceEntity.get({ kind, ident });

/** The sources of these identifiers, by their partition (`sourcePartition`); absent where none is stored. */
export async function getSources(keys: { kind: Kind; ident: string }[]): Promise<Map<string, Source>> {
  const found = await SourceEntity.getMany(keys);
  return new Map(found.flatMap((source, i) => (source ? [[sourcePartition(keys[i]!.kind, keys[i]!.ident), source] as const] : [])));
}

/** Stores a new source with its baseline; false when it exists already (another guild watches it). */
export async function insertSource(source: Source): Promise<boolean> {
  const created = await SourceEntity.put(source, source, { ifAbsent: true });
  if (created) {
    await SourceOfKindEntity.put(onList(source), {});
    if (source.uploads_playlist_id) await PlaylistEntity.put({ uploads: source.uploads_playlist_id }, { ident: source.ident });
  }
  return created;
}

/** Replaces a source read at `source.version`; false when another poll wrote it first. */
export const replaceSource = (source: Source) =>
  SourceEntity.put(source, { ...source, version: source.version + 1 }, { condition: { version: source.version } });

/**
 * Forgets a source no guild watches any more (its watchers are gone): the
 * source goes last, so a removal cut short is finished by the next one,
 * which still finds it.
 */
export async function deleteSource(source: Pick<Source, 'kind' | 'ident' | 'uploads_playlist_id'>): Promise<void> {
  await Promise.all([
    SourceOfKindEntity.delete(onList(source)),
    source.uploads_playlist_id ? PlaylistEntity.delete({ uploads: source.uploads_playlist_id }) : null,
  ]);
  await SourceEntity.delete(source);
}

const bucketList = (bucket: number) => ({ kind: 'stream', bucket }) as const;

/** How many stream accounts are watched, over every bucket. */
export async function streamAccountCount(): Promise<number> {
  const counts = await Promise.all(Array.from({ length: STREAM_BUCKETS }, (_, bucket) => SourceOfKindEntity.count(bucketList(bucket))));
  return counts.reduce((sum, n) => sum + n, 0);
}

/** The stream accounts of the buckets given (`streamBucketOf`). */
export async function streamAccountsOfBuckets(buckets: readonly number[]): Promise<string[]> {
  return (await Promise.all(buckets.map((bucket) => SourceOfKindEntity.query(bucketList(bucket))))).flat();
}

export const videoHandleOfPlaylist = (uploads: string) => PlaylistEntity.get({ uploads });

export async function putWatcher(kind: Kind, ident: string, watcher: Watcher): Promise<void> {
  await WatcherEntity.put({ kind, ident, guildId: watcher.guild_id, channelId: watcher.channel_id }, watcher);
}

export const deleteWatchers = (kind: Kind, ident: string, watchers: Pick<Watcher, 'guild_id' | 'channel_id'>[]) =>
  WatcherEntity.deleteMany(watchers.map((w) => ({ kind, ident, guildId: w.guild_id, channelId: w.channel_id })));

/** Every guild channel watching a source, read strongly consistently. */
export const watchersOf = (kind: Kind, ident: string) => WatcherEntity.query({ kind, ident });

/** The watchers whose guild has the module and this kind's component on, of those given when the caller has read them already. */
export async function activeWatchersOf(kind: Kind, ident: string, read?: Watcher[]): Promise<Watcher[]> {
  const watchers = read ?? (await watchersOf(kind, ident));
  const guilds = [...new Set(watchers.map((w) => w.guild_id))];
  const states = await ModuleState.getMany(guilds.map((guildId) => ({ guildId, module: 'socials' as const })));
  const on = new Set(guilds.filter((_, i) => states[i]?.enabled && states[i]?.settings?.[KINDS[kind].toggle] === true));
  return watchers.filter((w) => on.has(w.guild_id));
}

// ---- delivery marks ----------------------------------------------------------------------

/** A mark may be claimed when it is absent, or claimed by a delivery that never settled it and whose lease passed. */
const claimable = (now: number) => ({ $or: [{ pk: { exists: false } }, { $and: [{ state: 'claimed' }, { lease_until: { lt: now } }] }] });

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
  const claim = { state: 'claimed', lease_until: now + leaseMs, expires_at: Math.floor(now / 1000) + MARK_TTL_SECONDS };
  const condition = claimable(now);
  if (marks.length === 1) return MarkEntity.put({ channelId, mark: marks[0]! }, claim, { condition });
  return (
    (await transact(
      marks.map((mark) => MarkEntity.tx.put({ channelId, mark }, claim, { condition })),
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
  await Promise.all([
    MarkEntity.putMany(
      settled
        .filter(({ state }) => state)
        .map(({ channelId, mark, state }) => [
          { channelId, mark },
          { state, expires_at },
        ]),
    ),
    MarkEntity.deleteMany(settled.filter(({ state }) => !state)),
  ]);
}

/** Removes every item of the module in a guild's partition (entries and their counts: sort keys starting with SOCIAL); answers the entries. */
export async function deleteGuildEntries(guildId: string): Promise<Entry[]> {
  return (await deleteGuildItems(guildId, MODULE_PREFIX)).filter(EntryEntity.holds).map(EntryEntity.parse);
}

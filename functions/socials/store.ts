/**
 * The socials module's table access: the only file issuing its commands.
 *
 * | item           | pk                         | sk                                   |
 * |----------------|----------------------------|--------------------------------------|
 * | entry          | `G#<guild>`                | `SOCIAL#<kind>#<id>#<channel>`       |
 * | entries taken  | `G#<guild>`                | `SOCIALCOUNT#<kind>`                 |
 * | source         | `SRC#<kind>#<id>`          | `SOURCE`                             |
 * | watcher        | `SRC#<kind>#<id>`          | `W#<guild>#<channel>`                |
 * | sources of kind| `SRCKIND#<kind>`           | `<id>`                               |
 * | playlist       | `SRCPLAYLIST#<uploads id>` | `SOURCE` (-> the video handle)       |
 * | delivery mark  | `SOCIALPOST#<channel>`     | `<item key>` or `LINK#<link>`        |
 *
 * `<id>` is the identifier as compared (kinds.ts). A source is polled once
 * however many guilds watch it; its watchers are read from its own
 * partition, strongly consistent. A delivery mark is claimed with a
 * condition before the message is posted, so one channel gets one message
 * per item whoever delivers it; marks live 30 days.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { deleteKeys, getKeys } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { conditional } from '#shared/db/errors.js';
import { queryAll } from '#shared/db/pagination.js';
import { tableName } from '#shared/db/table.js';
import { deleteGuildItems, guildKey } from '#shared/modules/store.js';
import { KINDS, type Kind } from './kinds.js';

type Item = Record<string, NativeAttributeValue>;
type Key = { pk: string; sk: string };

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
  /** Keys of the items the source held last time (the baseline and after): never announced again. */
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

const PREFIX = 'SOCIAL#';
export const entryPrefix = (kind: Kind, ident?: string) => `${PREFIX}${kind}#${ident === undefined ? '' : `${ident}#`}`;
const entryKey = (guildId: string, kind: Kind, ident: string, channelId: string): Key => ({
  pk: guildKey(guildId),
  sk: `${entryPrefix(kind, ident)}${channelId}`,
});
const countKey = (guildId: string, kind: Kind): Key => ({ pk: guildKey(guildId), sk: `SOCIALCOUNT#${kind}` });
export const sourcePartition = (kind: Kind, ident: string) => `SRC#${kind}#${ident}`;
const sourceKey = (kind: Kind, ident: string): Key => ({ pk: sourcePartition(kind, ident), sk: 'SOURCE' });
const watcherKey = (kind: Kind, ident: string, guildId: string, channelId: string): Key => ({
  pk: sourcePartition(kind, ident),
  sk: `W#${guildId}#${channelId}`,
});
const kindKey = (kind: Kind, ident: string): Key => ({ pk: `SRCKIND#${kind}`, sk: ident });
const playlistKey = (uploads: string): Key => ({ pk: `SRCPLAYLIST#${uploads}`, sk: 'SOURCE' });
const markKey = (channelId: string, mark: string): Key => ({ pk: `SOCIALPOST#${channelId}`, sk: mark });

const strip = (item: Item, ...keys: string[]) => {
  const copy = { ...item };
  for (const key of ['pk', 'sk', 'entity', ...keys]) delete copy[key];
  return copy;
};

// ---- entries ------------------------------------------------------------------------

/**
 * An entry's item holds its record as the snapshots of module state list it
 * (`community`, `rss_feed` ... by kind), plus `_kind` and `_ident`, which
 * no record shows.
 */
function entryItem(entry: Entry): Item {
  const { kind, ident, identifier, ...record } = entry;
  return {
    ...entryKey(entry.guild_id, kind, ident, entry.target_channel_id),
    entity: 'social_entry',
    ...record,
    [KINDS[kind].field]: identifier,
    _kind: kind,
    _ident: ident,
  };
}

function entryOf(item: Item): Entry {
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
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': entryPrefix(kind, ident) },
    ConsistentRead: true,
  });
  return items.map(entryOf);
}

export function deleteEntries(entries: Entry[]): Promise<void> {
  return deleteKeys(entries.map((e) => entryKey(e.guild_id, e.kind, e.ident, e.target_channel_id)));
}

/** Takes one of the guild's places for a kind while fewer than `max` are taken. */
export function takeEntrySlot(guildId: string, kind: Kind, max: number): Promise<boolean> {
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: countKey(guildId, kind),
        UpdateExpression: 'ADD #n :one SET entity = :entity',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
        ExpressionAttributeNames: { '#n': 'taken' },
        ExpressionAttributeValues: { ':one': 1, ':max': max, ':entity': 'social_entry_count' },
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
        Key: countKey(guildId, kind),
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
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: sourceKey(kind, ident), ConsistentRead: true }));
  return out.Item ? (strip(out.Item) as unknown as Source) : null;
}

export async function getSources(keys: { kind: Kind; ident: string }[]): Promise<Map<string, Source>> {
  const found = await getKeys(keys.map((k) => sourceKey(k.kind, k.ident)));
  return new Map(found.map((item) => [String(item.pk), strip(item) as unknown as Source]));
}

/** Stores a new source with its baseline; false when it exists already (another guild watches it). */
export async function insertSource(source: Source): Promise<boolean> {
  const created = await conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...sourceKey(source.kind, source.ident), entity: 'social_source', ...source },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  if (created) {
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...kindKey(source.kind, source.ident), entity: 'social_source_of_kind' } }));
    if (source.uploads_playlist_id) {
      await db().send(
        new PutCommand({ TableName: tableName(), Item: { ...playlistKey(source.uploads_playlist_id), entity: 'social_playlist', ident: source.ident } }),
      );
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
        Item: { ...sourceKey(source.kind, source.ident), entity: 'social_source', ...next },
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': source.version },
      }),
    ),
  );
}

/** Forgets a source no guild watches any more (its watchers are gone). */
export async function deleteSource(source: Pick<Source, 'kind' | 'ident' | 'uploads_playlist_id'>): Promise<void> {
  const keys = [sourceKey(source.kind, source.ident), kindKey(source.kind, source.ident)];
  if (source.uploads_playlist_id) keys.push(playlistKey(source.uploads_playlist_id));
  await deleteKeys(keys);
}

export async function sourceIdentsOfKind(kind: Kind): Promise<string[]> {
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `SRCKIND#${kind}` }, ConsistentRead: true });
  return items.map((item) => String(item.sk));
}

export async function videoHandleOfPlaylist(uploads: string): Promise<string | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: playlistKey(uploads), ConsistentRead: true }));
  return out.Item ? String(out.Item.ident) : null;
}

export async function putWatcher(kind: Kind, ident: string, watcher: Watcher): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...watcherKey(kind, ident, watcher.guild_id, watcher.channel_id), entity: 'social_watcher', ...watcher },
    }),
  );
}

export function deleteWatchers(kind: Kind, ident: string, watchers: Pick<Watcher, 'guild_id' | 'channel_id'>[]): Promise<void> {
  return deleteKeys(watchers.map((w) => watcherKey(kind, ident, w.guild_id, w.channel_id)));
}

/** Every guild channel watching a source, read strongly consistently. */
export async function watchersOf(kind: Kind, ident: string): Promise<Watcher[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :w)',
    ExpressionAttributeValues: { ':pk': sourcePartition(kind, ident), ':w': 'W#' },
    ConsistentRead: true,
  });
  return items.map((item) => strip(item) as unknown as Watcher);
}

// ---- delivery marks ----------------------------------------------------------------------

/**
 * Claims the delivery of an item to a channel: one conditional write. A
 * claim whose post never completed (its lease passed) may be taken over;
 * the post carries the same nonce, so the platform still makes one message.
 */
export function claimMark(channelId: string, mark: string, leaseMs: number): Promise<boolean> {
  const now = Date.now();
  return conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...markKey(channelId, mark),
          entity: 'social_mark',
          state: 'claimed',
          lease_until: now + leaseMs,
          expires_at: Math.floor(now / 1000) + MARK_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR (#s = :claimed AND lease_until < :now)',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':claimed': 'claimed', ':now': now },
      }),
    ),
  );
}

export async function settleMark(channelId: string, mark: string, state: 'posted' | 'refused'): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: markKey(channelId, mark),
      UpdateExpression: 'SET #s = :s',
      ExpressionAttributeNames: { '#s': 'state' },
      ExpressionAttributeValues: { ':s': state },
    }),
  );
}

export async function releaseMark(channelId: string, mark: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: markKey(channelId, mark) }));
}

/** Removes every item of the module in a guild's partition (entries and their counts: sort keys starting with SOCIAL); answers the entries. */
export async function deleteGuildEntries(guildId: string): Promise<Entry[]> {
  return (await deleteGuildItems(guildId, 'SOCIAL')).filter((item) => item.entity === 'social_entry').map(entryOf);
}

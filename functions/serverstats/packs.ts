/**
 * Batched statistic records (behaviour §12, CONTRACT §18), stored packed: the
 * records of one family in one batch are one item, so a batch of 500 costs a
 * few writes instead of 500.
 *
 * | item | pk             | sk                                        |
 * |------|----------------|-------------------------------------------|
 * | pack | `STAT#<guild>` | `PACK#<family>#<newest time>#<first id>`  |
 *
 * A batch with an `Idempotency-Key` files its packs under a number derived
 * from the key, the request's fingerprint and the family in place of the
 * first id ({@link keyedFirst}), written only where absent: a repeat of the
 * batch finds its packs already there and changes nothing, and the answer
 * is kept under the key in one write after them (batch.ts).
 *
 * A pack's records are at most 15 minutes apart (the batch route takes no
 * `at` older), so a pack filed under its newest time holds nothing older
 * than that time less {@link PACK_SPAN_MS}: a fetch reads the packs of its
 * window newest first and stops once no unread pack can hold a newer record
 * than the page it has. The records are kept in columns (times and ids as
 * differences, repeated IDs once), JSON, deflated: about 12 bytes a message.
 * Upper-case `PACK#` sorts apart from the families' lower-case records and
 * from `SESSION#`, so no single-record range meets a pack.
 *
 * Filters (member, channel) are applied to the decoded records: a pack has
 * no index keys, as one batch names many members (a closed hour's records
 * are filed again by member and channel for them: `filing.ts`). Privacy (count, delete) reads
 * the guild's packs of every family and rewrites those naming the member;
 * a settings delete's removal removes packs whose newest record is before
 * its cutoff (older records of a pack across the cutoff are hidden by the
 * module's `data_since`, as every read starts there); packs expire 31 days
 * after their newest record.
 */
import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { entity } from '#shared/db/entity.js';
import { type Item, PACK_PREFIX, RECORD_TTL_SECONDS, latestStat, statPartition } from './store.js';

/** How far apart a pack's records may be: the batch route's oldest `at`. */
export const PACK_SPAN_MS = 15 * 60_000;

/** A record of a pack, decoded: its place, the member and channel it names, its record as answered. */
export interface PackedStat {
  time: string;
  id: number;
  memberId: string | null;
  channelId: string | null;
  record: Item;
}

interface Pack {
  family: string;
  newest: string;
  first: number;
  version: number;
  stats: PackedStat[];
  fields: PackFields;
}

/** The columns a pack stores: the record fields besides id, guild and time, and which of them name the member and channel. */
interface Columns {
  /** The first record's time (ms), and each record's time less it. */
  t0: number;
  t: number[];
  /** The first id, and each id less the one before. */
  i: number[];
  /** The field holding the time (`timestamp`). */
  tf: string;
  mf: string | null;
  cf: string | null;
  f: Record<string, Column>;
}

/** A column: its values, or (repeating strings) its distinct values and each row's index among them. */
type Column = { v: unknown[] } | { d: string[]; x: number[] };

function column(values: unknown[]): Column {
  if (!values.every((value) => typeof value === 'string')) return { v: values };
  const distinct = [...new Set(values as string[])];
  if (distinct.length === values.length) return { v: values };
  const at = new Map(distinct.map((value, index) => [value, index]));
  return { d: distinct, x: (values as string[]).map((value) => at.get(value)!) };
}

const valuesOf = (c: Column): unknown[] => ('v' in c ? c.v : c.x.map((index) => c.d[index]));

/** The packed form of a family's records in one batch (same fields, same member and channel fields on each). */
export function encode(stats: readonly PackedStat[], fields: PackFields): Buffer {
  const t0 = Date.parse(stats[0]!.time);
  const names = Object.keys(stats[0]!.record).filter((name) => name !== 'id' && name !== 'guild_id' && name !== fields.time);
  const columns: Columns = {
    t0,
    t: stats.map((s) => Date.parse(s.time) - t0),
    i: stats.map((s, index) => (index === 0 ? s.id : s.id - stats[index - 1]!.id)),
    tf: fields.time,
    mf: fields.member,
    cf: fields.channel,
    f: Object.fromEntries(names.map((name) => [name, column(stats.map((s) => s.record[name]))])),
  };
  return deflateRawSync(JSON.stringify(columns), { level: 9 });
}

/** Which record fields hold the time, the member and the channel. */
export interface PackFields {
  time: string;
  member: string | null;
  channel: string | null;
}

/** Which records of a pack a reader wants, by the member and channel they name (a fetch's filters); records it leaves out are not built. */
export interface PackFilter {
  memberId?: string | null;
  channelId?: string | null;
}

export function decode(guildId: string, data: Uint8Array, filter: PackFilter = {}): { stats: PackedStat[]; fields: PackFields } {
  const c = JSON.parse(inflateRawSync(data).toString('utf8')) as Columns;
  const fields = Object.entries(c.f).map(([name, col]) => [name, valuesOf(col)] as const);
  const column = (name: string | null) => (name ? fields.find(([field]) => field === name)?.[1] : undefined);
  const [members, channels] = [column(c.mf), column(c.cf)];
  const stats: PackedStat[] = [];
  let id = 0;
  c.t.forEach((dt, row) => {
    id += c.i[row]!;
    const memberId = members ? String(members[row]) : null;
    const channelId = channels ? String(channels[row]) : null;
    if ((filter.memberId && memberId !== filter.memberId) || (filter.channelId && channelId !== filter.channelId)) return;
    const time = new Date(c.t0 + dt).toISOString();
    const record: Item = { id, guild_id: guildId };
    for (const [name, values] of fields) record[name] = values[row];
    record[c.tf] = time;
    stats.push({ time, id, memberId, channelId, record });
  });
  return { stats, fields: { time: c.tf, member: c.mf, channel: c.cf } };
}

const PackEntity = entity({
  name: 'stat_pack',
  prefix: PACK_PREFIX,
  pk: (f: { guildId: string }) => statPartition(f.guildId),
  sk: (f: { guildId: string; family: string; newest: string; first: number }) => [f.family, f.newest, String(f.first).padStart(16, '0')],
  parse: (item): Omit<Pack, 'stats' | 'fields'> & { data: Uint8Array } => {
    const [family = '', newest = '', first = ''] = String(item.sk).slice(PACK_PREFIX.length).split('#');
    return { family, newest, first: Number(first), version: Number(item.version ?? 0), data: item.data as Uint8Array };
  },
});

/** A pack's key. */
export type PackKey = Parameters<typeof PackEntity.key>[0];

/** A family's records of one batch, as the pack to store (its key and attributes). */
export function packItem(guildId: string, family: string, stats: readonly PackedStat[], fields: PackFields, first = stats[0]!.id): [PackKey, Item] {
  const newest = stats
    .map((s) => s.time)
    .sort()
    .at(-1)!;
  const expires = Math.floor(Date.parse(newest) / 1000) + RECORD_TTL_SECONDS;
  return [
    { guildId, family, newest, first },
    { family, n: stats.length, version: 1, expires_at: expires, data: encode(stats, fields) },
  ];
}

/** Stores the packs of a batch: one batch write per 25 families. */
export const putPacks = (packs: readonly ReturnType<typeof packItem>[]) => PackEntity.putMany(packs);

/** The largest number a keyed pack is filed under: 16 digits, as the sort key pads them, and exact as a JavaScript number. */
const KEYED_FIRST_RANGE = 9_000_000_000_000_000n;

/** The number a keyed batch's pack of `family` is filed under (in place of its first id), from `seed`: the key with its scope, operation and the request's fingerprint. */
export function keyedFirst(seed: string, family: string): number {
  const digest = createHash('sha256').update(`${seed}\u0000${family}`, 'utf8').digest();
  return Number(digest.readBigUInt64BE(0) % KEYED_FIRST_RANGE);
}

/**
 * Stores a keyed batch's packs, each only where no pack has its key (one
 * conditional write a family, at once): answers the keys of those this call
 * wrote; the others an earlier attempt of the same batch wrote.
 */
export async function putPacksOnce(packs: readonly ReturnType<typeof packItem>[]): Promise<PackKey[]> {
  const written = await Promise.all(packs.map(([key, item]) => PackEntity.put(key, item, { condition: { pk: { exists: false } } })));
  return packs.filter((_, index) => written[index]).map(([key]) => key);
}

/** Deletes packs by their keys (a keyed batch's own, when its key turns out to be another request's). */
export const deletePacks = (keys: readonly PackKey[]) => PackEntity.deleteMany(keys);

/** The first read of a fetch's packs: a page seldom needs more than the newest; each read after it takes twice as many (DynamoDB stops one at 1 MB). */
const FIRST_READ = 8;
const MOST_A_READ = 1000;

/**
 * Items read in growing pages (8, then twice as many a read, up to 1,000),
 * yielded one by one as the caller asks for them: `read` takes a page's
 * limit and the sort key to read after, `skOf` gives an item's sort key.
 */
export async function* inGrowingReads<T>(read: (limit: number, after: string | undefined) => Promise<T[]>, skOf: (item: T) => string): AsyncGenerator<T> {
  let after: string | undefined;
  for (let limit = FIRST_READ; ; limit = Math.min(limit * 2, MOST_A_READ)) {
    const items = await read(limit, after);
    yield* items;
    if (items.length < limit) return;
    after = skOf(items.at(-1)!);
  }
}

/**
 * The packs of a family whose newest record is from `since` up to `through`,
 * newest first, decoded one by one as the caller asks for them.
 */
export async function* packsNewestFirst(
  guildId: string,
  family: string,
  since: string,
  through: string,
  filter: PackFilter = {},
): AsyncGenerator<{ newest: string; stats: PackedStat[] }> {
  if (through < since) return;
  const packs = inGrowingReads(
    (limit, after) =>
      PackEntity.query(
        { guildId },
        { under: [family], from: PackEntity.under(family) + since, to: `${PackEntity.under(family)}${through}\uffff`, reverse: true, limit, after },
      ),
    (last) => PackEntity.key({ guildId, family: last.family, newest: last.newest, first: last.first }).sk,
  );
  for await (const pack of packs) yield { newest: pack.newest, stats: decode(guildId, pack.data, filter).stats };
}

/** The packs of a family whose newest record is from `from` up to `to` (both whole ISO times), as stored: their sort key, version and columns (the filing job reads an hour's). */
export async function packsBetween(guildId: string, family: string, from: string, to: string): Promise<{ sk: string; version: number; data: Uint8Array }[]> {
  const read = await PackEntity.query({ guildId }, { under: [family], from: PackEntity.under(family) + from, to: `${PackEntity.under(family)}${to}\uffff` });
  return read.map((pack) => ({ sk: PackEntity.key({ guildId, ...pack }).sk, version: pack.version, data: pack.data }));
}

/** Every pack of the guild, every family (privacy reads them whole). */
async function allPacks(guildId: string): Promise<Pack[]> {
  const read = await PackEntity.query({ guildId });
  return read.map((pack) => ({ family: pack.family, newest: pack.newest, first: pack.first, version: pack.version, ...decode(guildId, pack.data) }));
}

/** The guild's batched records naming the member, every family. */
export async function memberPackedStats(guildId: string, memberId: string): Promise<PackedStat[]> {
  const read = await PackEntity.query({ guildId });
  return read.flatMap((pack) => decode(guildId, pack.data, { memberId }).stats);
}

/**
 * Removes the member's batched records (privacy): each pack naming them is
 * written again without them (deleted when none is left), under its
 * version, so a concurrent rewrite of the same pack is read again rather
 * than undone. Answers how many records it removed (their ids added to `removed`).
 */
export async function deleteMemberPacked(guildId: string, memberId: string, removedIds: Set<number> = new Set()): Promise<number> {
  let removed = 0;
  for (let attempt = 0; attempt < 8; attempt++) {
    const naming = (await allPacks(guildId)).filter((pack) => pack.stats.some((s) => s.memberId === memberId));
    if (naming.length === 0) return removed;
    for (const pack of naming) {
      const kept = pack.stats.filter((s) => s.memberId !== memberId);
      const key = { guildId, family: pack.family, newest: pack.newest, first: pack.first };
      const condition = { version: pack.version };
      const done = kept.length
        ? await PackEntity.update(key, { set: { data: encode(kept, pack.fields), n: kept.length, version: pack.version + 1 }, condition, returnValues: 'NONE' })
        : await PackEntity.delete(key, { condition });
      if (!done) continue;
      removed += pack.stats.length - kept.length;
      for (const stat of pack.stats) if (stat.memberId === memberId) removedIds.add(stat.id);
    }
  }
  throw new Error(`the statistic packs of guild ${guildId} kept changing`);
}

/** The newest record of a family since `since`, single or batched (a counter's latest statuses); null when there is none. */
export async function latestRecord(guildId: string, family: string, since: string): Promise<Item | null> {
  const [single, packs] = await Promise.all([
    latestStat(guildId, family, since),
    PackEntity.query({ guildId }, { under: [family], from: PackEntity.under(family) + since, reverse: true, limit: 1 }),
  ]);
  const packed = packs.length ? decode(guildId, packs[0]!.data).stats.reduce((a, b) => (b.time > a.time || (b.time === a.time && b.id > a.id) ? b : a)) : null;
  if (!packed || packed.time < since) return single?.record ?? null;
  return !single || single.time < packed.time || (single.time === packed.time && single.id < packed.id) ? packed.record : single.record;
}

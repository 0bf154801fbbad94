/**
 * Batched records filed again by member and by channel (issue 45): a pack
 * names many members, so a fetch filtered by one would read every pack of
 * its window. Once an hour is closed (no batch can still bring a record of
 * it: `at` is at most 15 minutes old), the `serverstats.file` job copies
 * the hour's packed records into items keyed by the member and by the
 * channel they name, and a filtered fetch Queries only its own.
 *
 * | item             | pk             | sk                                                |
 * |------------------|----------------|---------------------------------------------------|
 * | hour             | `STAT#<guild>` | `FILING#<hour>` (`state`: `due` or `filed`)       |
 * | members' records | `STAT#<guild>` | `FILED#M#<buckets>/<bucket>#<family>#<hour>#<part>` |
 * | channel's        | `STAT#<guild>` | `FILED#C#<channel>#<family>#<hour>#<part>`        |
 *
 * The hour item is written (`due`) before the first pack holding a record of
 * that hour, so an hour without one holds no batched record; the job turns
 * it `filed` only once every filed item of the hour is written. A fetch
 * therefore reads the filed items of `filed` hours and the packs only of
 * `due` ones, and answers each record once. A filed item holds the records
 * of one hour, oldest first, in the pack's columns, at most
 * {@link PART_RECORDS} a part.
 *
 * Most members send a few messages a day, so an item per member and hour
 * would cost a write unit a message, more than the batch itself. Members
 * are filed in buckets instead (a hash of the member ID): as many buckets
 * as give each about {@link BUCKET_RECORDS} records (a power of two, per
 * hour and family, noted on the hour's item), so a filed message costs
 * about a fiftieth of a write unit, and a member's fetch reads their
 * bucket's items, about that many records an hour whatever the guild's
 * size. Channels are few, so each has its own items. The packs stay (an unfiltered fetch reads
 * them); filed items expire with the packs they copy, and a settings
 * delete's removal takes them as it takes packs (`storedBefore`).
 */
import { type Item, entity } from '#shared/db/entity.js';
import { shardOf } from '#shared/scheduler/keys.js';
import { requestLater } from '#shared/scheduler/table-only.js';
import { FAMILIES, filtersOf } from './families.js';
import { FILE_JOB } from './jobs.js';
import { type PackFields, type PackedStat, PACK_SPAN_MS, decode, encode, inGrowingReads, packsBetween, packsNewestFirst } from './packs.js';
import { FILED_PREFIX, FILING_PREFIX, FILING_TTL_AFTER_MS, RECORD_TTL_SECONDS, type StatPosition, type StatQuery, isAfter, statPartition } from './store.js';

export { FILE_JOB };

const HOUR_MS = 3_600_000;
/** Records a filed item holds at most (about 12 bytes each deflated, well inside DynamoDB's 400 KB). */
export const PART_RECORDS = 1000;
/** Records a member bucket's item holds on average (about 1.5 KB deflated: one or two write units). */
export const BUCKET_RECORDS = 128;
const MOST_BUCKETS = 4096;

/** How many buckets an hour's `records` of a family's members are filed in. */
export const bucketsFor = (records: number) => {
  let buckets = 1;
  while (buckets * 2 <= Math.min(MOST_BUCKETS, records / BUCKET_RECORDS)) buckets *= 2;
  return buckets;
};
/** A member's bucket among `buckets`: `<buckets>/<bucket>`, so items filed under another count never meet. */
const bucketOf = (memberId: string, buckets: number) => `${buckets}/${shardOf(memberId, buckets)}`;
/** When an hour's job runs: after the last batch that may hold a record of it (15 minutes), with 5 minutes for clocks and slow requests. */
export const FILE_AFTER_MS = HOUR_MS + PACK_SPAN_MS + 5 * 60_000;

/** The hour a time is in, as the ISO time of its start. */
export const hourOf = (time: string | number) => {
  const ms = typeof time === 'number' ? time : Date.parse(time);
  return new Date(ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS)).toISOString();
};
const plusMs = (time: string, ms: number) => new Date(Date.parse(time) + ms).toISOString();

type HourState = 'due' | 'filed';

const HourEntity = entity({
  name: 'stat_filing',
  prefix: FILING_PREFIX,
  pk: (f: { guildId: string }) => statPartition(f.guildId),
  sk: (f: { guildId: string; hour: string }) => [f.hour],
  parse: (item) => ({
    hour: String(item.sk).slice(FILING_PREFIX.length),
    state: item.state as HourState,
    /** By family: how many buckets its members' records of the hour are filed in (once filed). */
    buckets: (item.buckets ?? {}) as Record<string, number>,
  }),
});

type Kind = 'M' | 'C';
interface FiledKey {
  guildId: string;
  kind: Kind;
  of: string;
  family: string;
  hour: string;
  part: number;
}

const FiledEntity = entity({
  name: 'stat_filed',
  prefix: FILED_PREFIX,
  pk: (f: { guildId: string }) => statPartition(f.guildId),
  sk: (f: FiledKey) => [f.kind, f.of, f.family, f.hour, String(f.part).padStart(4, '0')],
  parse: (item) => {
    const [kind = '', of = '', family = '', hour = '', part = ''] = String(item.sk).slice(FILED_PREFIX.length).split('#');
    return { kind: kind as Kind, of, family, hour, part: Number(part), version: Number(item.version ?? 0), data: item.data as Uint8Array };
  },
});
type Filed = ReturnType<typeof FiledEntity.parse>;

/** An hour's due item expires when the last pack that can hold a record of the hour does. */
const hourExpiry = (hour: string) => Math.floor((Date.parse(hour) + FILING_TTL_AFTER_MS) / 1000) + RECORD_TTL_SECONDS;

// ---- scheduling: the batch route ------------------------------------------------

/** The hours this process has seen noted, by guild (`<guild>#<hour>`): each is written at most once a process. */
const noted = new Set<string>();
const MOST_NOTED = 100_000;

/**
 * Notes the hours of a batch's packed records as due for filing, before its
 * packs are written: one conditional write a guild and hour a process (the
 * first of the guild's batches in the hour) after the job's due item, so a
 * crash between the two leaves a run that finds nothing to do, never a due
 * hour no run will file.
 */
export async function fileLater(guildId: string, stats: readonly Pick<PackedStat, 'time'>[]): Promise<void> {
  const hours = [...new Set(stats.map((stat) => hourOf(stat.time)))].filter((hour) => !noted.has(`${guildId}#${hour}`));
  if (noted.size + hours.length > MOST_NOTED) noted.clear();
  await Promise.all(
    hours.map(async (hour) => {
      // The job's due item first (requests of one guild and hour become one run): no hour is ever marked due without its job.
      await requestLater(FILE_JOB, `${guildId}#${hour}`, Math.max(0, Date.parse(hour) + FILE_AFTER_MS - Date.now()));
      await HourEntity.put({ guildId, hour }, { state: 'due', expires_at: hourExpiry(hour) }, { ifAbsent: true });
      noted.add(`${guildId}#${hour}`);
    }),
  );
}

// ---- the job ---------------------------------------------------------------------

/** The families filed: those a fetch filters by member or channel, and which a batch packs (presence and voice are single records). */
const FILED_FAMILIES = FAMILIES.filter((family) => {
  const filters = filtersOf(family.shape);
  return (filters.user || filters.channel) && family.shape.kind !== 'presence' && family.shape.kind !== 'voice';
});

interface HourPacks {
  family: string;
  packs: { sk: string; version: number; data: Uint8Array }[];
}

/** Every pack that may hold a record of the hour, by family: newest from the hour's start to 15 minutes after its end. */
const packsOfHour = (guildId: string, hour: string): Promise<HourPacks[]> =>
  Promise.all(
    FILED_FAMILIES.map(async (family) => ({
      family: family.path,
      packs: await packsBetween(guildId, family.path, hour, new Date(Date.parse(hour) + HOUR_MS + PACK_SPAN_MS - 1).toISOString()),
    })),
  );

const versionsOf = (read: HourPacks[]) =>
  read
    .flatMap((f) => f.packs.map((p) => `${p.sk}@${p.version}`))
    .sort()
    .join('\n');

/** The records of an hour in filed items: a member bucket's and a channel's of each family, oldest first, in parts; and how many buckets. */
export function filedItemsOf(
  guildId: string,
  hour: string,
  family: string,
  packs: readonly Uint8Array[],
): { items: [FiledKey, Record<string, unknown>][]; buckets: number } {
  const end = plusMs(hour, HOUR_MS);
  const inHour: { stat: PackedStat; fields: PackFields }[] = [];
  for (const data of packs) {
    const { stats, fields } = decode(guildId, data);
    for (const stat of stats) if (stat.time >= hour && stat.time < end) inHour.push({ stat, fields });
  }
  const buckets = bucketsFor(inHour.filter(({ stat }) => stat.memberId !== null).length);
  const groups = new Map<string, { kind: Kind; of: string; stats: PackedStat[]; fields: PackFields }>();
  const add = (kind: Kind, of: string, stat: PackedStat, fields: PackFields) => {
    const key = `${kind}#${of}`;
    const group = groups.get(key) ?? groups.set(key, { kind, of, stats: [], fields }).get(key)!;
    group.stats.push(stat);
  };
  for (const { stat, fields } of inHour) {
    if (stat.memberId !== null) add('M', bucketOf(stat.memberId, buckets), stat, fields);
    if (stat.channelId !== null) add('C', stat.channelId, stat, fields);
  }
  const items: [FiledKey, Record<string, unknown>][] = [];
  for (const { kind, of, stats, fields } of groups.values()) {
    stats.sort((a, b) => (isAfter(a, b) ? -1 : isAfter(b, a) ? 1 : 0));
    for (let part = 0; part * PART_RECORDS < stats.length; part++) {
      const records = stats.slice(part * PART_RECORDS, (part + 1) * PART_RECORDS);
      const newest = records.at(-1)!.time;
      items.push([
        { guildId, kind, of, family, hour, part },
        { n: records.length, version: 1, expires_at: Math.floor(Date.parse(newest) / 1000) + RECORD_TTL_SECONDS, data: encode(records, fields) },
      ]);
    }
  }
  return { items, buckets };
}

const keyText = (key: FiledKey) => FiledEntity.key(key).sk;

/**
 * Files a closed hour of a guild (the job's run): writes the filed items of
 * the hour's packs, then marks the hour `filed`. A run on a filed hour, or
 * on one a settings delete removed, does nothing, so a repeated run files
 * once; a run cut short leaves the hour `due` and the next writes the same
 * items again. If a pack changed while it ran (a member's privacy delete
 * rewrote it), it files the hour again and removes what the first pass
 * wrote that is no longer there. Answers whether it filed the hour.
 */
export async function fileHour(guildId: string, hour: string): Promise<boolean> {
  const marker = await HourEntity.get({ guildId, hour });
  if (!marker || marker.state === 'filed') return false;
  let written = new Map<string, FiledKey>();
  let read = await packsOfHour(guildId, hour);
  for (let attempt = 0; attempt < 8; attempt++) {
    const filed = read.map(({ family, packs }) => ({
      family,
      ...filedItemsOf(
        guildId,
        hour,
        family,
        packs.map((p) => p.data),
      ),
    }));
    const items = filed.flatMap((f) => f.items);
    const now = new Map(items.map(([key]) => [keyText(key), key]));
    await Promise.all([FiledEntity.putMany(items), FiledEntity.deleteMany([...written].filter(([sk]) => !now.has(sk)).map(([, key]) => key))]);
    written = now;
    const again = await packsOfHour(guildId, hour);
    if (versionsOf(again) === versionsOf(read)) {
      const buckets = Object.fromEntries(filed.filter((f) => f.items.length).map((f) => [f.family, f.buckets]));
      return HourEntity.update({ guildId, hour }, { set: { state: 'filed', buckets }, condition: { pk: { exists: true } }, returnValues: 'NONE' });
    }
    read = again;
  }
  throw new Error(`the statistic packs of guild ${guildId} in the hour from ${hour} kept changing`);
}

/**
 * What the batch route and the job would have left of an hour, as whole
 * items for seeds that write many at once (tests, the bench): the hour's
 * item in `state`, and when filed, the filed items of its packs (each
 * family's packs as stored).
 */
export function hourSeedItems(guildId: string, hour: string, state: HourState, packs: readonly { family: string; data: Uint8Array[] }[] = []): Item[] {
  const filed = state === 'filed' ? packs.map(({ family, data }) => ({ family, ...filedItemsOf(guildId, hour, family, data) })) : [];
  const buckets = Object.fromEntries(filed.filter((f) => f.items.length).map((f) => [f.family, f.buckets]));
  return [
    HourEntity.item({ guildId, hour }, { state, expires_at: hourExpiry(hour), ...(state === 'filed' ? { buckets } : {}) }),
    ...filed.flatMap((f) => f.items.map(([key, attributes]) => FiledEntity.item(key, attributes))),
  ];
}

// ---- the filtered fetch ----------------------------------------------------------

/** Some records of a fetch's source, and a time no record of a later chunk is newer than. */
interface Chunk {
  stats: PackedStat[];
  bound: string;
}

/** The filed items of a member's (or a channel's) family in hours from `sinceHour` to `throughHour`, newest first, read as the caller asks. */
async function* filedNewestFirst(guildId: string, kind: Kind, of: string, family: string, sinceHour: string, throughHour: string): AsyncGenerator<Filed> {
  const under = FiledEntity.under(kind, of, family);
  yield* inGrowingReads(
    (limit, after) =>
      FiledEntity.query({ guildId }, { under: [kind, of, family], from: under + sinceHour, to: `${under}${throughHour}\uffff`, reverse: true, limit, after }),
    (last) => keyText({ guildId, ...last }),
  );
}

/** Filed hours' records, from a member bucket's or a channel's items: each item's records; none later is newer than its oldest. */
async function* filedChunks(q: StatQuery, kind: Kind, of: string, sinceHour: string, throughHour: string, filed: ReadonlySet<string>): AsyncGenerator<Chunk> {
  for await (const item of filedNewestFirst(q.guildId, kind, of, q.family, sinceHour, throughHour)) {
    // An item of an hour not filed so (a run cut short, or one that filed it in other buckets) is not read: that hour is read otherwise.
    if (!filed.has(item.hour)) continue;
    const { stats } = decode(q.guildId, item.data);
    if (!stats.length) continue;
    // A filed item's records are stored oldest first.
    const bound = stats[0]!.time;
    const wanted = stats.filter((stat) => (!q.memberId || stat.memberId === q.memberId) && (!q.channelId || stat.channelId === q.channelId));
    yield { stats: wanted, bound };
  }
}

/** The due hours' records, from their packs: each run of consecutive due hours is one range of packs, newest first; none later is newer than a pack's newest. */
async function* dueChunks(q: StatQuery, due: readonly string[], throughPacks: string): AsyncGenerator<Chunk> {
  const dueSet = new Set(due);
  const runs: { from: string; to: string }[] = [];
  for (const hour of [...due].sort().reverse()) {
    const last = runs.at(-1);
    if (last && plusMs(hour, HOUR_MS) === last.from) last.from = hour;
    else runs.push({ from: hour, to: plusMs(hour, HOUR_MS) });
  }
  for (const run of runs) {
    const since = [run.from, q.since].sort()[1]!;
    const through = [plusMs(run.to, PACK_SPAN_MS), throughPacks].sort()[0]!;
    for await (const pack of packsNewestFirst(q.guildId, q.family, since, through, { memberId: q.memberId, channelId: q.channelId })) {
      yield { stats: pack.stats.filter((stat) => dueSet.has(hourOf(stat.time))), bound: pack.newest };
    }
  }
}

/** A chunked source's records after `after` in the window, until more than `limit` of them are newer than every record not read. */
async function collect(chunks: AsyncGenerator<Chunk>, q: StatQuery, after: StatPosition | null, limit: number): Promise<PackedStat[]> {
  const found: PackedStat[] = [];
  for await (const chunk of chunks) {
    for (const stat of chunk.stats) {
      if (stat.time < q.since || (after && !isAfter(stat, after))) continue;
      found.push(stat);
    }
    if (found.filter((stat) => stat.time > chunk.bound).length > limit) break;
  }
  return found;
}

/**
 * The batched records of a filtered fetch's page (a member, a channel or
 * both): those of filed hours from the member's (else the channel's) filed
 * items, those of hours still due from the packs, as the unfiltered fetch
 * reads them. Every record newer than the page's last is among them.
 */
export async function filteredPackedStatsAfter(q: StatQuery, after: StatPosition | null, limit: number): Promise<PackedStat[]> {
  if (after && after.time < q.since) return [];
  const sinceHour = hourOf(q.since);
  const throughHour = after ? hourOf(after.time) : undefined;
  const hours = await HourEntity.query(
    { guildId: q.guildId },
    { from: HourEntity.under() + sinceHour, ...(throughHour ? { to: HourEntity.under() + throughHour } : {}) },
  );
  const filed = hours.filter((h) => h.state === 'filed');
  const due = hours.filter((h) => h.state !== 'filed').map((h) => h.hour);
  // A member's filed hours by their bucket count (each count is a range of its own), or the channel's.
  const sources = new Map<string, Set<string>>();
  for (const { hour, buckets } of filed) {
    const of = q.memberId ? (buckets[q.family] ? bucketOf(q.memberId, buckets[q.family]!) : null) : q.channelId!;
    // No bucket count: the hour holds no record of the family's members.
    if (of !== null) (sources.get(of) ?? sources.set(of, new Set()).get(of)!).add(hour);
  }
  const kind: Kind = q.memberId ? 'M' : 'C';
  const found = await Promise.all([
    ...[...sources].map(([of, inHours]) => collect(filedChunks(q, kind, of, sinceHour, throughHour ?? '\uffff', inHours), q, after, limit)),
    due.length ? collect(dueChunks(q, due, after ? plusMs(after.time, PACK_SPAN_MS) : '\uffff'), q, after, limit) : [],
  ]);
  return found.flat();
}

// ---- privacy ---------------------------------------------------------------------

/** The member's buckets' filed items, every family: one range for each bucket count the guild's filed hours used. */
async function memberBucketItems(guildId: string, memberId: string): Promise<Filed[]> {
  const hours = await HourEntity.query({ guildId });
  const ranges = new Set(hours.flatMap((h) => Object.entries(h.buckets).map(([family, buckets]) => `${bucketOf(memberId, buckets)}#${family}`)));
  const read = await Promise.all(
    [...ranges].map((range) => {
      const [of = '', family = ''] = range.split('#');
      return FiledEntity.query({ guildId }, { under: ['M', of, family] });
    }),
  );
  return read.flat();
}

/** The member's filed records, every family (privacy's count). */
export async function memberFiledStats(guildId: string, memberId: string): Promise<PackedStat[]> {
  const items = await memberBucketItems(guildId, memberId);
  return items.flatMap((item) => decode(guildId, item.data, { memberId }).stats);
}

/**
 * Removes the member's filed records (privacy), after their packs: the
 * channels' filed items of the hours the member's records name are written
 * again without them, then their buckets' items (each under its version),
 * last, so a delete cut short finds its way again. Answers the ids removed.
 */
export async function deleteMemberFiled(guildId: string, memberId: string): Promise<Set<number>> {
  const items = await memberBucketItems(guildId, memberId);
  const removed = new Set<number>();
  const channelHours = new Map<string, { of: string; family: string; hour: string }>();
  for (const item of items) {
    for (const stat of decode(guildId, item.data, { memberId }).stats) {
      removed.add(stat.id);
      if (stat.channelId !== null)
        channelHours.set(`${stat.channelId}#${item.family}#${item.hour}`, { of: stat.channelId, family: item.family, hour: item.hour });
    }
  }
  for (const { of, family, hour } of channelHours.values()) await removeFrom(guildId, memberId, ['C', of, family, hour]);
  const buckets = new Set(items.map((item) => `${item.of}#${item.family}#${item.hour}`));
  for (const bucket of buckets) await removeFrom(guildId, memberId, ['M', ...bucket.split('#')]);
  return removed;
}

/** Writes the parts of a filed item (`under`: kind, of, family, hour) again without the member's records, each under its version, until none is left. */
async function removeFrom(guildId: string, memberId: string, under: string[]): Promise<void> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const parts = await FiledEntity.query({ guildId }, { under });
    let clean = true;
    for (const part of parts) {
      const { stats, fields } = decode(guildId, part.data);
      const kept = stats.filter((stat) => stat.memberId !== memberId);
      if (kept.length === stats.length) continue;
      const key = { guildId, ...part };
      const condition = { version: part.version };
      const done = kept.length
        ? await FiledEntity.update(key, { set: { data: encode(kept, fields), n: kept.length, version: part.version + 1 }, condition, returnValues: 'NONE' })
        : await FiledEntity.delete(key, { condition });
      clean &&= done;
    }
    if (clean) return;
  }
  throw new Error(`the filed statistics ${under.join('#')} of guild ${guildId} kept changing`);
}

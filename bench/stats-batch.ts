/**
 * Batched statistics (`npx tsx bench/stats-batch.ts`; `runStatsBatchBench()`
 * in `npm run bench`; CONTRACT §18): what a batched message costs the table,
 * table requests and write units per record, by batch size, counted as
 * bench/cost.ts counts them (`ReturnConsumedCapacity`, each request); and a
 * fetch's time and answer bytes as a community grows (1k, 10k, 50k
 * members, a message a member a day, sent by the bot in 10-s batches).
 * Figures, not tests.
 *
 * Each batch goes to a guild of its own, so each meets a cold settings
 * cache, as a guild's batch every 10 s does; each carries an
 * `Idempotency-Key`, as the bot sends it.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { FILE_AFTER_MS, fileHour, fileLater, hourOf, hourSeedItems } from '#functions/serverstats/filing.js';
import { packItem } from '#functions/serverstats/packs.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { countTableUse, type TableUse } from './cost.js';
import { pool } from './load.js';
import { call, snowflakes, succeed } from './requests.js';
import { type Row, median, printRows } from './table.js';

const SECTION = 'serverstats batches';
/** Batch sizes measured: the model community's 10 s (50,000 messages a day), a busier guild's, and the most a 64 KiB body holds. */
const SIZES = [6, 50, 400];
const BATCHES = Number(process.env.BENCH_BATCHES || 20);
/** Days of messages seeded for the fetch curve (30 in a full run: `BENCH_BATCH_DAYS=30`); the filtered fetch grows with them, the first page does not. */
const DAYS = Number(process.env.BENCH_BATCH_DAYS || 2);
const COMMUNITIES = (process.env.BENCH_BATCH_MEMBERS || '1000,10000,50000').split(',').map(Number);
const FLUSH_S = 10;

const snowflake = snowflakes(5234567890000000000n);

/** The table's requests and units from now until `stop()`, counted as the dollars bench counts them. */
function tableMeter() {
  const used: TableUse = { tableRequests: 0, readUnits: 0, writeUnits: 0 };
  return { used, stop: countTableUse(() => used, 'benchStatsBatchMeter') };
}

const message = (at: string, channel: string) => ({ family: 'messages/sent', at, channel_id: channel, author_id: snowflake(), message_id: snowflake() });

/** `BATCHES` batches of `size` messages, each to a guild of its own, counted; `noted`: each guild's hour already noted for filing, as for every batch of a guild's hour but its first in a process. */
async function meterBatches(service: LocalService, size: number, noted: boolean) {
  const guilds: string[] = [];
  for (let i = 0; i < BATCHES + 1; i++) {
    const guild = snowflake();
    await succeed(service, 'POST', '/modules/serverstats/enable', { guild_id: guild });
    if (noted) await fileLater(guild, [{ time: new Date().toISOString() }]);
    guilds.push(guild);
  }
  const body = (guild: string) => ({
    guild_id: guild,
    records: Array.from({ length: size }, () => message(new Date().toISOString(), String(100 + (size % 7)))),
  });
  // The first batch of the process reserves its block of ids.
  await succeed(service, 'POST', '/modules/serverstats/stats/batch', body(guilds[0]!), { 'idempotency-key': `bench-${snowflake()}` });
  const meter = tableMeter();
  const times: number[] = [];
  let bytes = 0;
  for (const guild of guilds.slice(1)) {
    const sent = body(guild);
    bytes += JSON.stringify(sent).length;
    const started = performance.now();
    const res = await call(service, 'POST', '/modules/serverstats/stats/batch', sent, { 'idempotency-key': `bench-${snowflake()}` });
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`batch of ${size}: ${res.status} ${JSON.stringify(res.json)}`);
  }
  meter.stop();
  return { used: meter.used, times, bytes };
}

async function perRecord(service: LocalService): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of SIZES) {
    const { used, times, bytes } = await meterBatches(service, size, true);
    const records = size * BATCHES;
    const { tableRequests: requests, writeUnits, readUnits } = used;
    rows.push({
      section: SECTION,
      measure: `batches of ${size} messages: table requests / write units per record`,
      value: `${(requests / records).toFixed(3)} / ${(writeUnits / records).toFixed(3)}`,
      note: `${requests} requests, ${writeUnits} WRU, ${readUnits} RRU for ${records} records in ${BATCHES} batches (${(bytes / BATCHES / 1024).toFixed(1)} KiB a body), each with an Idempotency-Key and a cold settings cache, its guild's hour already noted for filing; median batch ${median(times).toFixed(1)} ms (single recordings: 1 request, 1 WRU or more each)`,
    });
  }
  // A guild's first batch of an hour in a process also writes the hour's due item (and, the first in any process, the job's).
  const steady = await meterBatches(service, SIZES[0]!, true);
  const first = await meterBatches(service, SIZES[0]!, false);
  const more = (a: number, b: number) => ((a - b) / BATCHES).toFixed(2);
  rows.push({
    section: SECTION,
    measure: `a guild's first batch of an hour (${SIZES[0]} messages): table requests / write units more than the others`,
    value: `${more(first.used.tableRequests, steady.used.tableRequests)} / ${more(first.used.writeUnits, steady.used.writeUnits)}`,
    note: `the hour's due item (a conditional put) and the filing job's due item, once a guild and hour (the put once a process); over an hour of 10-s batches (360) ${(Number(more(first.used.tableRequests, steady.used.tableRequests)) / 360).toFixed(4)} requests a batch; median batch ${median(first.times).toFixed(1)} ms against ${median(steady.times).toFixed(1)} ms`,
  });
  return rows;
}

/** Writes items as the service would have stored them, 25 a batch write, 8 at a time (a seed, not the path measured). */
async function writeAll(items: Record<string, unknown>[]): Promise<void> {
  await pool(Math.ceil(items.length / 25), 8, async (b) => {
    let requests: Record<string, unknown>[] = items.slice(b * 25, b * 25 + 25).map((Item) => ({ PutRequest: { Item } }));
    while (requests.length) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (out.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined) ?? [];
    }
  });
}

/**
 * Seeds `days` of a community's messages as the bot's 10-s batches would
 * have stored them (a pack a 10 s holding a message or more), with each
 * hour's due item, and the filed items the filing job writes of each hour,
 * the hours left due (`markFiled` makes the closed ones filed). Written an
 * hour at a time, so 50,000 members' month is never in memory at once.
 */
async function seed(
  guild: string,
  members: string[],
  channels: string[],
  days: number,
): Promise<{ records: number; packs: number; filed: number; hours: Map<string, Record<string, unknown>> }> {
  const perDay = members.length;
  const now = Date.now();
  const slots = Math.floor((days * 86_400) / FLUSH_S);
  const perSlot = (perDay * days) / slots;
  const fields = { time: 'timestamp', member: 'author_id', channel: 'channel_id' };
  let items: Record<string, unknown>[] = [];
  /** Each hour's packs (as stored), until the slots have gone past it. */
  const byHour = new Map<string, Uint8Array[]>();
  /** Each hour's item as the job leaves it (filed, with its bucket counts), written by `markFiled`. */
  const hours = new Map<string, Record<string, unknown>>();
  let id = 1;
  let carried = 0;
  let records = 0;
  let packs = 0;
  let filed = 0;
  const fileOut = async (hour: string) => {
    // The filed items, as the job would write them; the hour itself stays due until markFiled.
    const [filedHour, ...filedItems] = hourSeedItems(guild, hour, 'filed', [{ family: 'messages/sent', data: byHour.get(hour)! }]);
    filed += filedItems.length;
    items.push(...hourSeedItems(guild, hour, 'due'), ...filedItems);
    hours.set(hour, filedHour!);
    byHour.delete(hour);
    if (items.length > 20_000) {
      await writeAll(items);
      items = [];
    }
  };
  for (let slot = 0; slot < slots; slot++) {
    carried += perSlot;
    const n = Math.floor(carried);
    if (n === 0) continue;
    carried -= n;
    const end = now - slot * FLUSH_S * 1000 - 1000;
    const stats = Array.from({ length: n }, (_, k) => {
      const time = new Date(end - k * 37).toISOString();
      const author = members[(id * 7919) % members.length]!;
      const channel = channels[id % channels.length]!;
      const record = { id, guild_id: guild, channel_id: channel, author_id: author, message_id: String(10n ** 18n + BigInt(id)), timestamp: time };
      return { time, id: id++, memberId: author, channelId: channel, record };
    });
    records += n;
    packs += 1;
    const [key, attributes] = packItem(guild, 'messages/sent', stats.reverse(), fields);
    // The entity's own item, written in bulk as a seed (not the path measured).
    items.push({ pk: `STAT#${guild}`, sk: `PACK#${key.family}#${key.newest}#${String(key.first).padStart(16, '0')}`, entity: 'stat_pack', ...attributes });
    for (const hour of new Set(stats.map((stat) => hourOf(stat.time))))
      (byHour.get(hour) ?? byHour.set(hour, []).get(hour)!).push(attributes.data as Uint8Array);
    // Slots go back in time: an hour two newer than this slot's has all its packs.
    for (const hour of [...byHour.keys()]) if (Date.parse(hour) > end + 3_600_000) await fileOut(hour);
  }
  for (const hour of [...byHour.keys()]) await fileOut(hour);
  await writeAll(items);
  return { records, packs, filed, hours };
}

/** Marks the hours filed whose filing job would have run by now (closed more than `FILE_AFTER_MS` ago); the newest stay due. */
async function markFiled(hours: Map<string, Record<string, unknown>>): Promise<string[]> {
  const closed = [...hours.keys()].filter((hour) => Date.parse(hour) + FILE_AFTER_MS <= Date.now());
  await writeAll(closed.map((hour) => hours.get(hour)!));
  return [...hours.keys()].filter((hour) => !closed.includes(hour));
}

async function timedFetch(service: LocalService, query: Record<string, string>): Promise<{ ms: number; bytes: number; stats: number; cursor: string | null }> {
  const started = performance.now();
  const res = await fetch(`${service.url}/modules/serverstats/stats/messages/sent?${new URLSearchParams(query)}`, {
    headers: { authorization: `Bearer ${service.serviceToken}` },
  });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`fetch: ${res.status} ${text}`);
  const data = JSON.parse(text).data;
  return { ms, bytes: Buffer.byteLength(text), stats: data.stats.length, cursor: data.next_cursor };
}

/** A member's whole month (every page) and a channel's first page, filtered fetches, limit 1000. */
async function filtered(service: LocalService, guild: string, member: string, channel: string) {
  const first = await timedFetch(service, { guild_id: guild, days: '30', limit: '1000', channel_id: channel });
  let all = { ms: 0, bytes: 0, stats: 0, pages: 0 };
  let cursor: string | null = null;
  do {
    const page = await timedFetch(service, { guild_id: guild, days: '30', limit: '1000', user_id: member, ...(cursor ? { cursor } : {}) });
    all = { ms: all.ms + page.ms, bytes: Math.max(all.bytes, page.bytes), stats: all.stats + page.stats, pages: all.pages + 1 };
    cursor = page.cursor;
  } while (cursor);
  return { channel: first, member: all };
}

async function fetchCurve(service: LocalService): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of COMMUNITIES) {
    const guild = snowflake();
    await succeed(service, 'POST', '/modules/serverstats/enable', { guild_id: guild });
    const members = Array.from({ length: size }, snowflake);
    const channels = Array.from({ length: 20 }, snowflake);
    const seeded = performance.now();
    const { records, packs, filed, hours } = await seed(guild, members, channels, DAYS);
    const seedS = (performance.now() - seeded) / 1000;
    const first = await timedFetch(service, { guild_id: guild, days: '30', limit: '1000' });
    // Every hour due: the filtered fetch reads every pack of its window, as before filing.
    const unfiled = await filtered(service, guild, members[11]!, channels[3]!);
    // The job's run on the newest closed hour, counted; then every closed hour filed.
    const closedHour = [...hours.keys()]
      .filter((hour) => Date.parse(hour) + FILE_AFTER_MS <= Date.now())
      .sort()
      .at(-1);
    const meter = tableMeter();
    const started = performance.now();
    if (closedHour) await fileHour(guild, closedHour);
    const jobMs = performance.now() - started;
    meter.stop();
    const due = await markFiled(hours);
    const withFiling = await filtered(service, guild, members[11]!, channels[3]!);
    // The same answers either way (the tests compare them record by record).
    if (withFiling.member.stats !== unfiled.member.stats || withFiling.channel.stats !== unfiled.channel.stats) {
      throw new Error(
        `filed hours answered ${withFiling.member.stats} / ${withFiling.channel.stats} records, the packs ${unfiled.member.stats} / ${unfiled.channel.stats}`,
      );
    }
    const inHour = records / hours.size;
    rows.push({
      section: SECTION,
      measure: `30-day fetch, ${size.toLocaleString('en')} members (${records.toLocaleString('en')} messages in ${DAYS} days, ${packs.toLocaleString('en')} packs): first page / a channel's first page / a member's all pages, hours filed`,
      value: `${first.ms.toFixed(0)} / ${withFiling.channel.ms.toFixed(0)} / ${withFiling.member.ms.toFixed(0)} ms`,
      note: `answers ${(first.bytes / 1024).toFixed(0)} KiB (${first.stats} records), ${(withFiling.channel.bytes / 1024).toFixed(0)} KiB (${withFiling.channel.stats}), ${(withFiling.member.bytes / 1024).toFixed(1)} KiB at most a page (${withFiling.member.stats} records, ${withFiling.member.pages} pages); limit 1000, under the 1 MiB answer; ${hours.size - due.length} hours filed in ${filed.toLocaleString('en')} items, the newest ${due.length} due (read from packs); seeded in ${seedS.toFixed(0)} s`,
    });
    rows.push({
      section: SECTION,
      measure: `the same, no hour filed yet: a channel's first page / a member's all pages`,
      value: `${unfiled.channel.ms.toFixed(0)} / ${unfiled.member.ms.toFixed(0)} ms`,
      note: `${unfiled.channel.stats} and ${unfiled.member.stats} records (${unfiled.member.pages} pages): every pack of the window read, as before filing`,
    });
    if (closedHour) {
      const { tableRequests, readUnits, writeUnits } = meter.used;
      rows.push({
        section: SECTION,
        measure: `filing an hour of ${size.toLocaleString('en')} members: table requests / read units / write units per message`,
        value: `${(tableRequests / inHour).toFixed(3)} / ${(readUnits / inHour).toFixed(3)} / ${(writeUnits / inHour).toFixed(3)}`,
        note: `the job's run on the hour from ${closedHour}: ${tableRequests} requests, ${readUnits} RRU, ${writeUnits} WRU for about ${Math.round(inHour)} messages, ${jobMs.toFixed(0)} ms`,
      });
    }
  }
  return rows;
}

export async function runStatsBatchBench(): Promise<Row[]> {
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false, jobs: false });
  try {
    return [...(await perRecord(service)), ...(await fetchCurve(service))];
  } finally {
    await service.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printRows(await runStatsBatchBench());
}

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

async function perRecord(service: LocalService): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of SIZES) {
    const guilds: string[] = [];
    for (let i = 0; i < BATCHES + 1; i++) {
      const guild = snowflake();
      await succeed(service, 'POST', '/modules/serverstats/enable', { guild_id: guild });
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
    const records = size * BATCHES;
    const { tableRequests: requests, writeUnits, readUnits } = meter.used;
    rows.push({
      section: SECTION,
      measure: `batches of ${size} messages: table requests / write units per record`,
      value: `${(requests / records).toFixed(3)} / ${(writeUnits / records).toFixed(3)}`,
      note: `${requests} requests, ${writeUnits} WRU, ${readUnits} RRU for ${records} records in ${BATCHES} batches (${(bytes / BATCHES / 1024).toFixed(1)} KiB a body), each with an Idempotency-Key and a cold settings cache; median batch ${median(times).toFixed(1)} ms (single recordings: 1 request, 1 WRU or more each)`,
    });
  }
  return rows;
}

/** Seeds `days` of a community's messages as the bot's 10-s batches would have stored them: a pack a 10 s holding a message. */
async function seed(guild: string, members: string[], channels: string[], days: number): Promise<number> {
  const perDay = members.length;
  const now = Date.now();
  const slots = Math.floor((days * 86_400) / FLUSH_S);
  const perSlot = (perDay * days) / slots;
  const items: Record<string, unknown>[] = [];
  let id = 1;
  let carried = 0;
  let records = 0;
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
    const [fields, attributes] = packItem(guild, 'messages/sent', stats.reverse(), { time: 'timestamp', member: 'author_id', channel: 'channel_id' });
    // The entity's own item, written in bulk as a seed (not the path measured).
    items.push({
      pk: `STAT#${guild}`,
      sk: `PACK#${fields.family}#${fields.newest}#${String(fields.first).padStart(16, '0')}`,
      entity: 'stat_pack',
      ...attributes,
    });
  }
  await pool(Math.ceil(items.length / 25), 8, async (b) => {
    let requests: Record<string, unknown>[] = items.slice(b * 25, b * 25 + 25).map((Item) => ({ PutRequest: { Item } }));
    while (requests.length) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (out.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined) ?? [];
    }
  });
  return records;
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

async function fetchCurve(service: LocalService): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of COMMUNITIES) {
    const guild = snowflake();
    await succeed(service, 'POST', '/modules/serverstats/enable', { guild_id: guild });
    const members = Array.from({ length: size }, snowflake);
    const channels = Array.from({ length: 20 }, snowflake);
    const records = await seed(guild, members, channels, DAYS);
    const first = await timedFetch(service, { guild_id: guild, days: '30', limit: '1000' });
    const channel = await timedFetch(service, { guild_id: guild, days: '30', limit: '1000', channel_id: channels[3]! });
    // One member's whole month: every page.
    let member = { ms: 0, bytes: 0, stats: 0, pages: 0 };
    let cursor: string | null = null;
    do {
      const page = await timedFetch(service, { guild_id: guild, days: '30', limit: '1000', user_id: members[11]!, ...(cursor ? { cursor } : {}) });
      member = { ms: member.ms + page.ms, bytes: Math.max(member.bytes, page.bytes), stats: member.stats + page.stats, pages: member.pages + 1 };
      cursor = page.cursor;
    } while (cursor);
    rows.push({
      section: SECTION,
      measure: `30-day fetch, ${size.toLocaleString('en')} members (${records.toLocaleString('en')} messages in ${DAYS} days): first page / a channel's first page / a member's all pages`,
      value: `${first.ms.toFixed(0)} / ${channel.ms.toFixed(0)} / ${member.ms.toFixed(0)} ms`,
      note: `answers ${(first.bytes / 1024).toFixed(0)} KiB (${first.stats} records), ${(channel.bytes / 1024).toFixed(0)} KiB (${channel.stats}), ${(member.bytes / 1024).toFixed(1)} KiB at most a page (${member.stats} records, ${member.pages} pages); limit 1000, under the 1 MiB answer; packs of 10 s; a filter reads the window's packs until its page is full`,
    });
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

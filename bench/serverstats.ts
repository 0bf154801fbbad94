/**
 * Serverstats benchmark (`npx tsx bench/serverstats.ts`; `runServerstatsBench()`
 * for the main runner): DynamoDB requests per recording beside its floor of
 * one, recordings per second through local mode against dynalite's own puts
 * in the same run, platform calls per counter refresh of a guild with 20
 * counters, and items read per item returned by a fetch from a guild holding
 * 100,000 records. Figures, not tests.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { refreshGuild } from '#functions/serverstats/counters.js';
import { statItem } from '#functions/serverstats/store.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { pool } from './load.js';
import { call, countDynamoRequests, snowflakes } from './requests.js';
import { type Row, printRows } from './table.js';

const SECTION = 'serverstats';
const RECORDINGS = 1000;
const CONCURRENCY = 50;
const COUNTERS = 20;
const BIG_GUILD_RECORDS = 100_000;
const BIG_GUILD_AUTHORS = 1000;

const snowflake = snowflakes(3234567890000000000n);

async function enabledGuild(service: LocalService): Promise<string> {
  const guild = snowflake();
  const res = await call(service, 'POST', '/modules/serverstats/enable', { guild_id: guild });
  if (res.status !== 200) throw new Error(`enable failed: ${JSON.stringify(res.json)}`);
  return guild;
}

async function recordings(service: LocalService): Promise<Row[]> {
  const guild = await enabledGuild(service);
  const body = () => ({ guild_id: guild, channel_id: snowflake(), author_id: snowflake(), message_id: snowflake() });
  // The first recording of a process reads the settings and reserves a block of ids.
  await call(service, 'POST', '/modules/serverstats/stats/messages/sent', body());
  const counter = countDynamoRequests();
  let failed = 0;
  const ms = await pool(RECORDINGS, CONCURRENCY, async () => {
    if ((await call(service, 'POST', '/modules/serverstats/stats/messages/sent', body())).status !== 200) failed++;
  });
  const { requests } = counter.take();
  counter.stop();
  const raw = await pool(RECORDINGS, CONCURRENCY, async (i) => {
    await db().send(new PutCommand({ TableName: tableName(), Item: { pk: `BENCHRAW#${guild}`, sk: String(i), n: i } }));
  });
  const rate = (RECORDINGS / ms) * 1000;
  const rawRate = (RECORDINGS / raw) * 1000;
  return [
    {
      section: SECTION,
      measure: 'DynamoDB requests per recording (floor 1)',
      value: (requests / RECORDINGS).toFixed(3),
      note: `${requests} for ${RECORDINGS} recordings, settings cached; ids come in blocks of 100`,
    },
    {
      section: SECTION,
      measure: 'recordings through local mode vs dynalite puts',
      value: `${(rate / rawRate).toFixed(2)}x`,
      note: `${rate.toFixed(0)} recordings/s (HTTP, auth, validation) vs ${rawRate.toFixed(0)} bare puts/s; ${RECORDINGS} each, ${CONCURRENCY} at once; ${failed} failed`,
    },
  ];
}

async function counterRefresh(service: LocalService): Promise<Row[]> {
  const guild = await enabledGuild(service);
  const settings = await call(service, 'PUT', '/modules/serverstats/settings', { guild_id: guild, counters_enabled: true, counters_category_id: 'create' });
  if (settings.status !== 200) throw new Error(JSON.stringify(settings.json));
  const sandbox = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const join = () =>
    fetch(`${sandbox}/_sandbox/guilds/${guild}/members/${snowflake()}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  await join();
  for (let i = 0; i < COUNTERS; i++) {
    const res = await call(service, 'POST', '/modules/serverstats/counters', {
      guild_id: guild,
      counter_type: 6,
      new_format: `Members ${i}: <value>`,
      new_role_id: null,
      new_goal: null,
    });
    if (res.status !== 200) throw new Error(JSON.stringify(res.json));
  }
  const unchanged = await refreshGuild(guild);
  await join();
  const changed = await refreshGuild(guild);
  return [
    {
      section: SECTION,
      measure: `platform calls per refresh of ${COUNTERS} counters, nothing changed`,
      value: String(unchanged.platformCalls),
      note: `renames ${unchanged.renamed} (floor 0); the one call reads the guild's counts`,
    },
    {
      section: SECTION,
      measure: `platform calls per refresh of ${COUNTERS} counters, all changed`,
      value: String(changed.platformCalls),
      note: `renames ${changed.renamed} (floor ${COUNTERS}) plus the one read of the guild's counts`,
    },
  ];
}

async function bigGuildFetch(service: LocalService): Promise<Row[]> {
  const guild = await enabledGuild(service);
  const authors = Array.from({ length: BIG_GUILD_AUTHORS }, snowflake);
  const now = Date.now();
  const items = Array.from({ length: BIG_GUILD_RECORDS }, (_, i) => {
    const time = new Date(now - Math.floor((i / BIG_GUILD_RECORDS) * 30 * 86_400_000) - 1000).toISOString();
    const author = authors[i % BIG_GUILD_AUTHORS]!;
    const channel = String(100 + (i % 50));
    return statItem({
      guildId: guild,
      family: 'messages/sent',
      id: i + 1,
      time,
      memberId: author,
      channelId: channel,
      record: { id: i + 1, guild_id: guild, channel_id: channel, message_id: String(1_000_000 + i), author_id: author, timestamp: time },
    });
  });
  await pool(Math.ceil(items.length / 25), 8, async (b) => {
    let requests: Record<string, unknown>[] = items.slice(b * 25, b * 25 + 25).map((Item) => ({ PutRequest: { Item } }));
    while (requests.length) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (out.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined) ?? [];
    }
  });
  const counter = countDynamoRequests();
  let returned = 0;
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ guild_id: guild, days: '30', user_id: authors[7]!, ...(cursor ? { cursor } : {}) });
    const res = await call(service, 'GET', `/modules/serverstats/stats/messages/sent?${query}`);
    if (res.status !== 200) throw new Error(JSON.stringify(res.json));
    returned += res.json.data.stats.length;
    cursor = res.json.data.next_cursor;
  } while (cursor);
  const { itemsRead } = counter.take();
  counter.stop();
  return [
    {
      section: SECTION,
      measure: `fetch of 30 days of one member's messages, ${BIG_GUILD_RECORDS.toLocaleString('en')} records in the guild: items read per item returned`,
      value: (itemsRead / Math.max(1, returned)).toFixed(2),
      note: `${itemsRead} read for ${returned} returned (floor 1): gsi1 holds the member's records in time order`,
    },
  ];
}

export async function runServerstatsBench(): Promise<Row[]> {
  // No in-process producers: their polling of the due index would count as requests of the operations measured.
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false, jobs: false });
  try {
    return [...(await recordings(service)), ...(await counterRefresh(service)), ...(await bigGuildFetch(service))];
  } finally {
    await service.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printRows(await runServerstatsBench());
}

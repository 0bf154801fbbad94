/**
 * Socials fan-out benchmark (`npx tsx bench/fan-out.ts` alone, or in
 * `npm run bench`): the time from the poll that finds a new item to its
 * message in the last of 10, 100, 1,000 and 10,000 watching channels, on
 * the sandbox platform at the real platform's global rate limit (50
 * requests a second: `SANDBOX_GLOBAL_RATE`), and the DynamoDB requests per
 * channel beside their floor. `BENCH_FANOUT_CHANNELS` (comma-separated)
 * picks other counts. Figures, not tests.
 *
 * Each count gets a forum community watched by that many channels, 25 to a
 * guild: the first entry is made through the API (the source, its baseline
 * and its poll job), the other watchers are written with the store's own
 * `putWatcher`, as entries would write them, so setting up 10,000 channels
 * takes seconds, not minutes.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ANNOUNCE_JOB, CHANNELS_PER_UNIT } from '#functions/socials/fan-out.js';
import { pollSource } from '#functions/socials/polling.js';
import { putWatcher } from '#functions/socials/store.js';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { SPREAD } from '#shared/scheduler/keys.js';
import { queryDue } from '#shared/scheduler/store.js';
import { countDynamoRequests, handlerRequests, ofGuild, snowflakes, succeed } from './requests.js';
import { type Row, printRows } from './table.js';

const SECTION = 'socials fan-out';
const GLOBAL_RATE = 50;
const COUNTS = (process.env.BENCH_FANOUT_CHANNELS || '10,100,1000,10000')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
/** A count that has not finished by then is reported as such (10,000 channels at 50 posts a second take 200 s). */
const LIMIT_MS = 15 * 60_000;

const snowflake = snowflakes(6234567890000000000n);

async function control(service: LocalService, method: string, path: string, body?: unknown): Promise<any> {
  const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

/** `count` channels watching a new forum community; answers the community and the channels. */
async function watchers(service: LocalService, count: number): Promise<{ community: string; channels: Set<string> }> {
  const community = `fan${count}x${Date.now().toString(36)}`;
  await control(service, 'POST', `/_sandbox/sources/forum/${community}`);
  const channels = new Set<string>();
  for (let first = 0; first < count; first += 25) {
    const guild = snowflake();
    await succeed(service, 'POST', '/modules/socials/enable', { guild_id: guild });
    await succeed(service, 'PUT', '/modules/socials/settings', {
      guild_id: guild,
      monitor_forum: true,
      monitor_rss: false,
      monitor_stream: false,
      monitor_video: false,
    });
    const mine = Array.from({ length: Math.min(25, count - first) }, snowflake);
    // The entry's channel must be the guild's on the platform (the others are written as watchers directly).
    if (first === 0) await ofGuild(service, guild, { channels: [mine[0]!] });
    if (first === 0)
      await succeed(service, 'POST', '/modules/socials/entries/forum', { guild_id: guild, community, target_channel_id: mine[0], mention_everyone: false });
    await Promise.all(
      mine.slice(first === 0 ? 1 : 0).map((channel) => putWatcher('forum', community, { guild_id: guild, channel_id: channel, mention_everyone: false })),
    );
    for (const channel of mine) channels.add(channel);
  }
  return { community, channels };
}

/**
 * Waits until no unit of an announcement waits in the due index (every unit
 * done, the chains' next ones included); answers when the last one was seen.
 * Read twice, 100 ms apart: a chain's next unit may land in a shard read a
 * moment before its predecessor's.
 */
async function drained(deadline: number): Promise<number | null> {
  const idle = async () =>
    (await Promise.all(Array.from({ length: SPREAD }, (_, shard) => queryDue(ANNOUNCE_JOB, shard, Number.MAX_SAFE_INTEGER, 1)))).every(
      (items) => items.length === 0,
    );
  for (;;) {
    const at = performance.now();
    if ((await idle()) && (await new Promise((r) => setTimeout(r, 100)), await idle())) return at;
    if (performance.now() > deadline) return null;
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Figure {
  channels: number;
  ms: number | null;
  delivered: number;
  perChannel: number;
  rateLimited: number;
}

async function measure(service: LocalService, count: number): Promise<Figure> {
  const { community, channels } = await watchers(service, count);
  await control(service, 'DELETE', '/_sandbox/requests');
  await control(service, 'POST', `/_sandbox/sources/forum/${community}/posts`, { title: `Fan-out to ${count}` });
  const counter = countDynamoRequests();
  const started = performance.now();
  await pollSource('forum', community);
  const done = await drained(started + LIMIT_MS);
  const ms = done === null ? null : done - started;
  const requests = handlerRequests(counter.take());
  counter.stop();
  const state = await control(service, 'GET', '/_sandbox/state');
  const delivered = (state.channels as { id: string; messages: unknown[] }[]).filter((c) => channels.has(c.id) && c.messages.length === 1).length;
  const log = (await control(service, 'GET', '/_sandbox/requests')) as { status: number }[];
  return { channels: count, ms, delivered, perChannel: requests / count, rateLimited: log.filter((r) => r.status === 429).length };
}

export async function runFanOutBench(): Promise<Row[]> {
  const previous = process.env.SANDBOX_GLOBAL_RATE;
  process.env.SANDBOX_GLOBAL_RATE = String(GLOBAL_RATE);
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false });
  const rows: Row[] = [];
  try {
    for (const count of COUNTS) {
      const f = await measure(service, count);
      const floorS = count / GLOBAL_RATE;
      rows.push({
        section: SECTION,
        measure: `time from the poll finding a new item to its message in the last of ${count} channels (s)`,
        value: f.ms === null ? `> ${LIMIT_MS / 1000}` : (f.ms / 1000).toFixed(1),
        note: `floor ${floorS.toFixed(1)} s (${count} posts at ${GLOBAL_RATE}/s); ${f.delivered}/${count} channels got 1 message; ${Math.ceil(count / CHANNELS_PER_UNIT)} units; ${f.rateLimited} global 429s waited out`,
      });
      rows.push({
        section: SECTION,
        measure: `DynamoDB requests per channel, ${count} channels`,
        value: f.perChannel.toFixed(2),
        note: "floor 1 (the conditional write claiming the delivery); here 4 a channel (claim and settle the item mark and the link mark) plus each unit's scheduling (request, claim, complete) and the poll's reads",
      });
    }
  } finally {
    await service.stop();
    if (previous === undefined) delete process.env.SANDBOX_GLOBAL_RATE;
    else process.env.SANDBOX_GLOBAL_RATE = previous;
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printRows(await runFanOutBench());
}

/**
 * Socials fan-out benchmark (`npx tsx bench/fan-out.ts` alone, or in
 * `npm run bench`): a cost-growth curve (issue 34), the time per channel and
 * the DynamoDB requests per channel when a source watched by N = 10^2, 10^3
 * and 10^4 channels has a new item, from the poll that finds it to its
 * message in the last channel, on the sandbox platform at the real
 * platform's global rate limit (50 requests a second:
 * `SANDBOX_GLOBAL_RATE`). 10^4 is the largest N within the bench's time:
 * its posts alone take 200 s at that rate, 10^5 would take 33 minutes.
 * `BENCH_FANOUT_CHANNELS` (comma-separated) picks other counts. A flat
 * line is a cost per channel that stays constant as N grows. Figures, not
 * tests.
 *
 * Each count gets a forum community watched by that many channels, 25 to a
 * guild: the first entry is made through the API (the source, its baseline
 * and its poll job), the other watchers are written with the store's own
 * `putWatcher`, as entries would write them, so setting up 10,000 channels
 * takes seconds, not minutes.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SETTLE_BATCH } from '#functions/socials/announce.js';
import { ANNOUNCE_JOB, CHANNELS_PER_UNIT } from '#functions/socials/fan-out.js';
import { pollSource } from '#functions/socials/polling.js';
import { putWatcher } from '#functions/socials/store.js';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { SPREAD } from '#shared/scheduler/keys.js';
import { onWorkDone } from '#shared/scheduler/index.js';
import { queryDue } from '#shared/scheduler/store.js';
import { countDynamoRequests, handlerRequests, ofGuild, snowflakes, succeed } from './requests.js';
import { type Row, printRows } from './table.js';

const SECTION = 'socials fan-out';
const GLOBAL_RATE = 50;
const COUNTS = (process.env.BENCH_FANOUT_CHANNELS || '100,1000,10000')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
/** Requests of the scheduler for each unit of an announcement: asking for it, the consumer's claim, its completion. */
const UNIT_REQUESTS = 3;
/** Marks a forum post is claimed and settled with in each channel: the post's, and its link's. */
const MARKS = 2;
/**
 * The requests a channel costs at least: one conditional request claiming
 * its marks before the post, its share of the batch writes settling them,
 * and its share of its unit's scheduling. The poll's own few reads (the
 * source, its watchers, the guilds' module states, the source written back)
 * are shared by all N and come on top.
 */
const FLOOR = 1 + MARKS / SETTLE_BATCH + UNIT_REQUESTS / CHANNELS_PER_UNIT;

/** A count that has not finished by then is reported as such (10,000 channels at 50 posts a second take 200 s). */
const LIMIT_MS = 15 * 60_000;

const snowflake = snowflakes(6234567890000000000n);

export async function control(service: LocalService, method: string, path: string, body?: unknown): Promise<any> {
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
export async function watchers(service: LocalService, count: number): Promise<{ community: string; channels: Set<string> }> {
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
export async function drained(deadline: number): Promise<number | null> {
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
  /** Units that ran more than once (a channel failed for now, or a message came back): each run again claims its channels anew. */
  again: number;
}

async function measure(service: LocalService, count: number): Promise<Figure> {
  const { community, channels } = await watchers(service, count);
  await control(service, 'DELETE', '/_sandbox/requests');
  await control(service, 'POST', `/_sandbox/sources/forum/${community}/posts`, { title: `Fan-out to ${count}` });
  const counter = countDynamoRequests();
  let again = 0;
  const stopWatching = onWorkDone((done) => {
    if (done.job === ANNOUNCE_JOB && done.receiveCount > 1) again++;
  });
  const started = performance.now();
  await pollSource('forum', community);
  const done = await drained(started + LIMIT_MS);
  const ms = done === null ? null : done - started;
  const requests = handlerRequests(counter.take());
  counter.stop();
  stopWatching();
  const state = await control(service, 'GET', '/_sandbox/state');
  const delivered = (state.channels as { id: string; messages: unknown[] }[]).filter((c) => channels.has(c.id) && c.messages.length === 1).length;
  const log = (await control(service, 'GET', '/_sandbox/requests')) as { status: number }[];
  return { channels: count, ms, delivered, perChannel: requests / count, rateLimited: log.filter((r) => r.status === 429).length, again };
}

/** 10000 as 10^4, other counts as they are. */
const power = (n: number) => (/^10*$/.test(String(n)) && n >= 100 ? `10^${String(n).length - 1}` : String(n));

export async function runFanOutBench(): Promise<Row[]> {
  const previous = process.env.SANDBOX_GLOBAL_RATE;
  process.env.SANDBOX_GLOBAL_RATE = String(GLOBAL_RATE);
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false });
  const rows: Row[] = [];
  try {
    for (const count of COUNTS) {
      const f = await measure(service, count);
      const floorS = count / GLOBAL_RATE;
      const largest = count === Math.max(...COUNTS) ? ' (the largest N here)' : '';
      rows.push({
        section: SECTION,
        measure: `channels watching a source, N = ${power(count)}${largest}: time and DynamoDB requests per channel`,
        value: `${f.ms === null ? `> ${((LIMIT_MS / count) | 0).toFixed(0)}` : (f.ms / count).toFixed(0)} ms, ${f.perChannel.toFixed(2)} requests (floor ${FLOOR.toFixed(2)})`,
        note: `${f.ms === null ? `not done in ${LIMIT_MS / 1000} s` : `${(f.ms / 1000).toFixed(1)} s`} to the last channel, floor ${floorS.toFixed(1)} s (${count} posts at the platform's ${GLOBAL_RATE}/s); ${f.delivered}/${count} channels got 1 message; ${Math.ceil(count / CHANNELS_PER_UNIT)} units, ${f.again} run again; ${f.rateLimited} global 429s waited out; request floor a channel: 1 claiming its marks before the post, ${MARKS}/${SETTLE_BATCH} settling them, ${UNIT_REQUESTS}/${CHANNELS_PER_UNIT} its unit's scheduling; the poll's reads shared by all N`,
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

/**
 * Work that resumes across bounded runs (`npx tsx bench/resume.ts` alone,
 * or in `npm run bench`): the cost per unit of a timed-role catch-up per
 * member caught up, and of a serverstats settings delete per record
 * deleted, at growing N. A flat line means the cost per unit stays the same
 * as the guild grows. Figures, not tests.
 *
 * - Catch-up: a guild of N members (the sandbox's bulk join), none holding
 *   the timed role, which is owed to each a year after joining (so every
 *   member gets a grant and its due work, and nothing is granted during
 *   the bench). The pass runs on the scheduler, at most 5 member pages a
 *   run (`WELCOMING_CATCHUP_PAGES`; local mode's 10 s lease ends a run
 *   sooner), from its start to the end of the member list. Per member:
 *   time, DynamoDB requests, platform requests.
 * - Welcoming delete: the catch-up's guild, its N grants pending with their
 *   due work, then `DELETE /settings`: the answer's time, and the time until
 *   the grants' removal behind it ends, 10 pages of 2000 a run
 *   (`WELCOMING_SWEEP_PAGES`). Per grant: time, DynamoDB requests.
 * - Serverstats delete: a guild with N statistic records (batch-written first), then
 *   `DELETE /settings`: the answer's time, and the time until the removal
 *   behind it ends, 10 pages of 2000 keys a run (`SERVERSTATS_PURGE_PAGES`).
 *   Per record: time, DynamoDB requests.
 * - Poll delete: a poll with N voters (batch-written first), then
 *   `DELETE /handler/delete`: the answer's time, and the time until its
 *   voters' removal behind it ends, 10 pages of 2000 keys a run
 *   (`POLLS_SWEEP_PAGES`). Per voter: time, DynamoDB requests.
 *
 * `BENCH_RESUME_MEMBERS`, `BENCH_RESUME_RECORDS` and `BENCH_RESUME_VOTERS`
 * (comma-separated; `0` leaves that curve out) pick other counts. On the 2-core development machine under load, 10,000
 * members take about 3 minutes (two writes a member: the grant and its due
 * work) and 30,000 records about a minute.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { voterSweep } from '#functions/polls/lifecycle.js';
import { dueKeyOf } from '#functions/polls/keys.js';
import { getPurge } from '#functions/serverstats/purge.js';
import { grantSweep } from '#functions/welcoming/grants.js';
import { WelcomingJobs } from '#functions/welcoming/keys.js';
import { catchUpPlace } from '#functions/welcoming/store.js';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { scheduler } from '#shared/scheduler/index.js';
import { getDue } from '#shared/scheduler/store.js';
import { seedVoters } from '#test/integration/polls/seed.js';
import { seedMessages } from '#test/integration/serverstats/seed.js';
import { countDynamoRequests, handlerRequests, ofGuild, snowflakes, succeed } from './requests.js';
import { type Row, printRows } from './table.js';

const SECTION = 'resumable work';
const counts = (name: string, fallback: string) =>
  (process.env[name] || fallback)
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
const MEMBERS = counts('BENCH_RESUME_MEMBERS', '100,1000,10000');
const RECORDS = counts('BENCH_RESUME_RECORDS', '100,1000,10000,30000');
const VOTERS = counts('BENCH_RESUME_VOTERS', '100,1000,10000,30000');
/** A pass or removal not done by then is reported as such. */
const LIMIT_MS = 10 * 60_000;
const HOUR_MS = 3_600_000;
const YEAR_S = 31_536_000;

const snowflake = snowflakes(7234567890000000000n);

/** The bench's own reads while it waits are not the work's: they run in this store and are not counted. */
const watching = new AsyncLocalStorage<true>();
const watch = <T>(read: () => Promise<T>) => watching.run(true, read);

async function sandbox(service: LocalService, method: string, path: string, body?: unknown): Promise<any> {
  const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const res = await fetch(`${origin}/_sandbox${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Polls until `done` answers true (or the limit passes); answers when it was first seen true, or null. */
async function until(done: () => Promise<boolean>, started: number): Promise<number | null> {
  for (;;) {
    const at = performance.now();
    if (await watch(done)) return at;
    if (at - started > LIMIT_MS) return null;
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Figure {
  n: number;
  ms: number | null;
  dynamo: number;
  platform?: number;
  answerMs?: number;
}

async function catchUpOf(service: LocalService, members: number): Promise<Figure & { guild: string }> {
  const guild = snowflake();
  const role = snowflake();
  await succeed(service, 'POST', '/modules/welcoming/enable', { guild_id: guild });
  await succeed(service, 'PUT', '/modules/welcoming/settings', { guild_id: guild, timedroles_enabled: true });
  await ofGuild(service, guild, { roles: [role] });
  const joinedAt = new Date(Date.now() - 2 * HOUR_MS).toISOString();
  for (let first = 0; first < members; first += 10_000) {
    const ids = Array.from({ length: Math.min(10_000, members - first) }, snowflake);
    await sandbox(service, 'POST', `/guilds/${guild}/members/join-many`, { user_ids: ids, joined_at: joinedAt });
  }
  await succeed(service, 'POST', '/modules/welcoming/timedroles', { guild_id: guild, role_id: role, add_after: YEAR_S });
  await sandbox(service, 'DELETE', '/requests');

  const counter = countDynamoRequests(() => watching.getStore() !== true);
  const started = performance.now();
  await scheduler.scheduleAt(WelcomingJobs.catchUp, guild, Date.now());
  // The pass is over when its place is gone and the catch-up waits for its hourly run.
  const done = await until(
    async () => (await catchUpPlace(guild)) === null && ((await getDue(WelcomingJobs.catchUp, guild))?.due_at ?? 0) > Date.now() + HOUR_MS / 2,
    started,
  );
  const dynamo = handlerRequests(counter.take());
  counter.stop();
  const log = (await sandbox(service, 'GET', '/requests')) as { method: string; path: string }[];
  const platform = log.filter((r) => r.path.startsWith(`/guilds/${guild}/`)).length;
  return { n: members, ms: done === null ? null : done - started, dynamo, platform, guild };
}

/** The welcoming settings delete of a guild whose catch-up left `grants` pending grants. */
async function grantDeleteOf(service: LocalService, guild: string, grants: number): Promise<Figure> {
  const counter = countDynamoRequests(() => watching.getStore() !== true);
  const started = performance.now();
  await succeed(service, 'DELETE', '/modules/welcoming/settings', { guild_id: guild });
  const answerMs = performance.now() - started;
  const done = await until(async () => (await grantSweep.get(guild)) === null, started);
  const dynamo = handlerRequests(counter.take());
  counter.stop();
  return { n: grants, ms: done === null ? null : done - started, dynamo, answerMs };
}

async function deleteOf(service: LocalService, records: number): Promise<Figure> {
  const guild = snowflake();
  await succeed(service, 'POST', '/modules/serverstats/enable', { guild_id: guild });
  await seedMessages(guild, snowflake(), records);

  const counter = countDynamoRequests(() => watching.getStore() !== true);
  const started = performance.now();
  await succeed(service, 'DELETE', '/modules/serverstats/settings', { guild_id: guild });
  const answerMs = performance.now() - started;
  const done = await until(async () => (await getPurge(guild)) === null, started);
  const dynamo = handlerRequests(counter.take());
  counter.stop();
  return { n: records, ms: done === null ? null : done - started, dynamo, answerMs };
}

/** A poll of `voters` voters deleted: the answer, then its voters' removal behind it. */
async function pollDeleteOf(service: LocalService, voters: number): Promise<Figure> {
  const guild = snowflake();
  const channel = snowflake();
  const pollId = `bench-${snowflake()}`;
  await ofGuild(service, guild, { channels: [channel] });
  await succeed(service, 'POST', '/modules/polls/enable', { guild_id: guild });
  await succeed(service, 'POST', '/modules/polls/handler/create', {
    guild_id: guild,
    poll_id: pollId,
    channel_id: channel,
    poll_type: 2,
    message_id: null,
    edited_with_results: false,
    poll_answer_type: 2,
    question: 'Bench?',
    description: null,
    end_time: Math.floor(Date.now() / 1000) + 3600,
    delete_at: null,
    language: 'en',
    auto_delete: 0,
    answers: ['Yes', 'No'].map((answer_text) => ({ answer_text, label: null, description: null, emoji_name: null, emoji_id: null })),
    is_multi_select: false,
    is_anonymous: false,
    max_votes_per_answer: 1,
    sent_by_service: false,
    poll_owner_id: null,
  });
  await seedVoters(guild, pollId, voters);

  const counter = countDynamoRequests(() => watching.getStore() !== true);
  const started = performance.now();
  await succeed(service, 'DELETE', '/modules/polls/handler/delete', { guild_id: guild, poll_id: pollId });
  const answerMs = performance.now() - started;
  const done = await until(async () => (await voterSweep.get(dueKeyOf(guild, pollId))) === null, started);
  const dynamo = handlerRequests(counter.take());
  counter.stop();
  return { n: voters, ms: done === null ? null : done - started, dynamo, answerMs };
}

const perUnit = (f: Figure, unit: string) => (f.ms === null ? `> ${LIMIT_MS / 1000} s` : `${((f.ms * 1000) / f.n).toFixed(0)} µs/${unit}`);

export async function runResumeBench(): Promise<Row[]> {
  const previous = {
    pages: process.env.WELCOMING_CATCHUP_PAGES,
    purge: process.env.SERVERSTATS_PURGE_PAGES,
    sweep: process.env.WELCOMING_SWEEP_PAGES,
    voters: process.env.POLLS_SWEEP_PAGES,
  };
  process.env.WELCOMING_CATCHUP_PAGES = '5';
  process.env.SERVERSTATS_PURGE_PAGES = '10';
  process.env.WELCOMING_SWEEP_PAGES = '10';
  process.env.POLLS_SWEEP_PAGES = '10';
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false });
  const rows: Row[] = [];
  try {
    for (const n of MEMBERS) {
      const f = await catchUpOf(service, n);
      rows.push({
        section: SECTION,
        measure: `timed-role catch-up, ${n} members: per member caught up`,
        value: perUnit(f, 'member'),
        note: `${(f.dynamo / n).toFixed(3)} DynamoDB requests and ${(f.platform! / n).toFixed(4)} platform requests a member; ${f.ms === null ? '-' : (f.ms / 1000).toFixed(1)} s from the first run to the end of the pass`,
      });
      if (f.ms === null) continue;
      const d = await grantDeleteOf(service, f.guild, n);
      rows.push({
        section: SECTION,
        measure: `welcoming settings delete, ${n} grants: per grant deleted`,
        value: perUnit(d, 'grant'),
        note: `${(d.dynamo / n).toFixed(3)} DynamoDB requests a grant; answered in ${d.answerMs!.toFixed(0)} ms, removal done ${d.ms === null ? '-' : (d.ms / 1000).toFixed(1)} s after the call`,
      });
    }
    for (const n of RECORDS) {
      const f = await deleteOf(service, n);
      rows.push({
        section: SECTION,
        measure: `serverstats settings delete, ${n} records: per record deleted`,
        value: perUnit(f, 'record'),
        note: `${(f.dynamo / n).toFixed(3)} DynamoDB requests a record; answered in ${f.answerMs!.toFixed(0)} ms, removal done ${f.ms === null ? '-' : (f.ms / 1000).toFixed(1)} s after the call`,
      });
    }
    for (const n of VOTERS) {
      const f = await pollDeleteOf(service, n);
      rows.push({
        section: SECTION,
        measure: `poll delete, ${n} voters: per voter deleted`,
        value: perUnit(f, 'voter'),
        note: `${(f.dynamo / n).toFixed(3)} DynamoDB requests a voter; answered in ${f.answerMs!.toFixed(0)} ms, removal done ${f.ms === null ? '-' : (f.ms / 1000).toFixed(1)} s after the call`,
      });
    }
  } finally {
    await service.stop();
    for (const [name, value] of [
      ['WELCOMING_CATCHUP_PAGES', previous.pages],
      ['SERVERSTATS_PURGE_PAGES', previous.purge],
      ['WELCOMING_SWEEP_PAGES', previous.sweep],
      ['POLLS_SWEEP_PAGES', previous.voters],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printRows(await runResumeBench());
}

/**
 * Giveaway entrants benchmark (`npx tsx bench/entrants.ts` alone, or in
 * `npm run bench`): what an enter and the end's draw cost per entrant as a
 * giveaway grows, at N = 100, 1,000, 10,000, 100,000 and 1,000,000 entrants
 * (CONTRACT 15's target; `BENCH_ENTRANTS`, comma-separated, picks others).
 * A flat line is the point: cost per entrant stays the same as N grows.
 * Figures, not tests. The million takes 8 to 18 minutes on a busy 2-core
 * machine, most of it writing the entrants into local dynalite (the row
 * says how long); the draw itself some 30 to 70 s.
 *
 * For each N a giveaway is filled with N entrants: through the API while N
 * is at most API_ENTERS, else written straight into the table with the
 * store's own entity (the items and the count an enter writes), as going
 * through the API would take minutes at 100,000. Then ENTERS_TIMED members
 * enter through the API on top of the N (time and requests per enter), and
 * the end runs as the scheduler runs it, one piece a run, until round 1 is
 * kept (time and requests per entrant, the longest run).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { EntrantEntity } from '#functions/giveaways/entrants.js';
import { DRAW_PIECE, endGiveaway } from '#functions/giveaways/lifecycle.js';
import { GiveawayEntity } from '#functions/giveaways/store.js';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { putItems } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { pool } from './load.js';
import { call, countDynamoRequests, handlerRequests, ofGuild, snowflakes } from './requests.js';
import { type Row, printRows } from './table.js';

const SECTION = 'giveaway entrants';
const COUNTS = (process.env.BENCH_ENTRANTS || '100,1000,10000,100000,1000000')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
/** Up to this many entrants are entered through the API; above, written into the table. */
const API_ENTERS = 1000;
/** Enters timed on top of the N already in. */
const ENTERS_TIMED = 200;
const CONCURRENCY = 20;
/** Written into the table this many at a time (batches of 25, eight at once, per slice). */
const SEED_SLICE = 5000;

const snowflake = snowflakes(7234567890000000000n);

/** `ids` entered straight into the table: their entrant items and the count, what their enters would have written. */
export async function seedEntrants(guildId: string, entryId: string, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += SEED_SLICE) {
    await putItems(ids.slice(i, i + SEED_SLICE).map((memberId) => EntrantEntity.item({ guildId, entryId, memberId }, { entered_at: null })));
  }
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: GiveawayEntity.key({ guildId, entryId }),
      UpdateExpression: 'ADD participant_count :n',
      ExpressionAttributeValues: { ':n': ids.length },
    }),
  );
}

async function giveaway(service: LocalService): Promise<{ guild: string; entryId: string }> {
  const guild = snowflake();
  const channel = snowflake();
  await call(service, 'POST', '/modules/giveaways/enable', { guild_id: guild });
  await ofGuild(service, guild, { channels: [channel] });
  const res = await call(service, 'POST', '/modules/giveaways/entries', {
    guild_id: guild,
    channel_id: channel,
    giveaway_owner_id: snowflake(),
    prize: 'Bench prize',
    winner_count: 10,
    end_time: '1h',
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.json));
  return { guild, entryId: res.json.data.entry.entry_id };
}

/** Enters through the API, `count` of them CONCURRENCY at once: the time taken and the handlers' table requests. */
async function enters(service: LocalService, guild: string, entryId: string, count: number): Promise<{ ms: number; requests: number }> {
  const counter = countDynamoRequests();
  let failed = 0;
  const ms = await pool(count, CONCURRENCY, async () => {
    const res = await call(service, 'POST', `/modules/giveaways/entries/${entryId}/enter`, { guild_id: guild }, { 'x-acting-user-id': snowflake() });
    if (res.status !== 200) failed++;
  });
  const requests = handlerRequests(counter.take());
  counter.stop();
  if (failed) throw new Error(`${failed} of ${count} enters failed`);
  return { ms, requests };
}

interface Figure {
  n: number;
  seeded: boolean;
  /** Time taken writing the seeded entrants into the table (setup, not a cost of the service). */
  seedMs: number;
  enterMs: number;
  enterRequests: number;
  drawMs: number;
  drawRequests: number;
  runs: number;
  longestRunMs: number;
}

async function measure(service: LocalService, n: number): Promise<Figure> {
  const { guild, entryId } = await giveaway(service);
  const before = n - ENTERS_TIMED;
  const seeded = before > API_ENTERS;
  const seeding = performance.now();
  if (seeded) {
    await seedEntrants(
      guild,
      entryId,
      Array.from({ length: before }, () => snowflake()),
    );
  } else if (before > 0) await enters(service, guild, entryId, before);
  const seedMs = seeded ? performance.now() - seeding : 0;
  const entered = await enters(service, guild, entryId, Math.min(n, ENTERS_TIMED));
  // The end as the scheduler runs it: one piece a run, again until round 1 is kept.
  const counter = countDynamoRequests();
  const started = performance.now();
  let runs = 0;
  let longestRunMs = 0;
  for (let again = true; again; runs++) {
    const at = performance.now();
    again = (await endGiveaway(guild, entryId)) !== undefined;
    longestRunMs = Math.max(longestRunMs, performance.now() - at);
  }
  const drawMs = performance.now() - started;
  const drawRequests = handlerRequests(counter.take());
  counter.stop();
  const ended = (await call(service, 'GET', `/modules/giveaways/entries/${entryId}?guild_id=${guild}`, undefined as never)).json.data.entry;
  if (ended.participant_count !== n || ended.rounds.length !== 1) throw new Error(`the end of ${n}: ${JSON.stringify(ended).slice(0, 300)}`);
  const timed = Math.min(n, ENTERS_TIMED);
  return { n, seeded, seedMs, enterMs: entered.ms / timed, enterRequests: entered.requests / timed, drawMs, drawRequests, runs, longestRunMs };
}

export async function runEntrantsBench(): Promise<Row[]> {
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false });
  const rows: Row[] = [];
  try {
    for (const n of COUNTS) {
      const f = await measure(service, n);
      const how = f.seeded
        ? `the first ${n - ENTERS_TIMED} written into the table in ${(f.seedMs / 1000).toFixed(0)} s, the last ${ENTERS_TIMED} through the API`
        : 'all through the API';
      rows.push({
        section: SECTION,
        measure: `enter with ${n} entrants: ms / DynamoDB requests per enter`,
        value: `${f.enterMs.toFixed(2)} / ${f.enterRequests.toFixed(2)}`,
        note: `the last ${Math.min(n, ENTERS_TIMED)} enters, ${CONCURRENCY} at once (${how}); floor 2: the batch read of state and pending refresh, the one transaction; the refresh's requests shared among them`,
      });
      rows.push({
        section: SECTION,
        measure: `draw of ${n} entrants: µs / DynamoDB requests per entrant`,
        value: `${((f.drawMs * 1000) / n).toFixed(1)} / ${(f.drawRequests / n).toFixed(4)}`,
        note: `${(f.drawMs / 1000).toFixed(2)} s in ${f.runs} runs of up to ${DRAW_PIECE} entrants, the longest ${(f.longestRunMs / 1000).toFixed(2)} s; ${f.drawRequests} requests (Query pages of 1 MB, one write a piece, the close, message and flags)`,
      });
    }
  } finally {
    await service.stop();
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printRows(await runEntrantsBench());
}

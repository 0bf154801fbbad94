/**
 * Giveaways benchmark (`npx tsx bench/giveaways.ts`; `runGiveawaysBench()`
 * for the main runner): enters per second with 500 members at once against
 * dynalite's raw conditional writes in the same run, message edits per 500
 * enters, the end's delay after `end_time`, and the end's DynamoDB requests
 * with 10,000 entrants. Figures, not tests.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { endGiveaway } from '#functions/giveaways/lifecycle.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { seedEntrants } from './entrants.js';
import { pool } from './load.js';
import { call, countDynamoRequests, handlerRequests, ofGuild, snowflakes } from './requests.js';
import { type Row, median, printRows } from './table.js';

const SECTION = 'giveaways';
const RUSH = 500;
const CONCURRENCY = 50;

const snowflake = snowflakes(6234567890000000000n);

async function create(service: LocalService, guild: string, endTime: string) {
  const channel = snowflake();
  await ofGuild(service, guild, { channels: [channel] });
  const res = await call(service, 'POST', '/modules/giveaways/entries', {
    guild_id: guild,
    channel_id: channel,
    giveaway_owner_id: snowflake(),
    prize: 'Bench prize',
    winner_count: 3,
    end_time: endTime,
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.json));
  return res.json.data.entry as { entry_id: string; channel_id: string; message_id: string };
}

export async function runGiveawaysBench(): Promise<Row[]> {
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false });
  const sandbox = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  try {
    const guild = snowflake();
    await call(service, 'POST', '/modules/giveaways/enable', { guild_id: guild });
    const g = await create(service, guild, '1h');
    await fetch(`${sandbox}/_sandbox/requests`, { method: 'DELETE' });
    let failed = 0;
    const rushCounter = countDynamoRequests();
    const enterMs = await pool(RUSH, CONCURRENCY, async () => {
      if (
        (await call(service, 'POST', `/modules/giveaways/entries/${g.entry_id}/enter`, { guild_id: guild }, { 'x-acting-user-id': snowflake() })).status !== 200
      )
        failed++;
    });
    // Let the batched refresh finish, then count its requests with the enters', and the message's edits.
    await new Promise((r) => setTimeout(r, 5000));
    const rushRequests = handlerRequests(rushCounter.take());
    rushCounter.stop();
    const requests = (await (await fetch(`${sandbox}/_sandbox/requests`)).json()) as { method: string; path: string }[];
    const edits = requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/messages/${g.message_id}`)).length;
    const raw = await pool(RUSH, CONCURRENCY, async (i) => {
      await db().send(
        new PutCommand({ TableName: tableName(), Item: { pk: `BENCHRAW#${guild}`, sk: String(i) }, ConditionExpression: 'attribute_not_exists(pk)' }),
      );
    });
    const stored = await call(service, 'GET', `/modules/giveaways/entries/${g.entry_id}?guild_id=${guild}`, undefined as never);

    // Ends on the scheduler: the delay after end_time.
    const delays: number[] = [];
    const ends = await Promise.all(Array.from({ length: 10 }, (_, i) => create(service, guild, `${2 + (i % 3)}s`)));
    const endAt = new Map<string, number>();
    for (const e of ends)
      endAt.set(
        e.entry_id,
        Date.parse((await call(service, 'GET', `/modules/giveaways/entries/${e.entry_id}?guild_id=${guild}`, undefined as never)).json.data.entry.end_time),
      );
    const deadline = Date.now() + 20_000;
    const pending = new Set(ends.map((e) => e.entry_id));
    while (pending.size && Date.now() < deadline) {
      for (const id of [...pending]) {
        const entry = (await call(service, 'GET', `/modules/giveaways/entries/${id}?guild_id=${guild}`, undefined as never)).json.data.entry;
        if (entry.status === 'ended') {
          delays.push(Date.now() - endAt.get(id)!);
          pending.delete(id);
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    }

    // The end with 10,000 entrants: its DynamoDB requests.
    const big = await create(service, guild, '1h');
    await seedEntrants(guild, big.entry_id, Array.from({ length: 10_000 }, snowflake));
    const counter = countDynamoRequests();
    // One piece a run, as the scheduler runs it, until round 1 is kept.
    while (await endGiveaway(guild, big.entry_id));
    const endRequests = handlerRequests(counter.take());
    counter.stop();

    const rate = (RUSH / enterMs) * 1000;
    const rawRate = (RUSH / raw) * 1000;
    return [
      {
        section: SECTION,
        measure: `enters through local mode vs dynalite conditional writes (${RUSH} members, ${CONCURRENCY} at once)`,
        value: `${(rate / rawRate).toFixed(2)}x`,
        note: `${rate.toFixed(0)} enters/s vs ${rawRate.toFixed(0)} writes/s; entrant count ${stored.json.data.entry.participant_count} of ${RUSH}, ${failed} failed`,
      },
      {
        section: SECTION,
        measure: 'DynamoDB requests per enter, all work included',
        value: `${(rushRequests / RUSH).toFixed(2)} (floor 1)`,
        note: `${rushRequests} for ${RUSH} enters: the one transaction (entrant item and count); the batch read of module state and pending refresh; the refresh's own requests (producers' polls left out)`,
      },
      {
        section: SECTION,
        measure: `message edits for ${RUSH} enters`,
        value: String(edits),
        note: 'batched: one edit per refresh window (2 s), floor a handful',
      },
      {
        section: SECTION,
        measure: 'end after end_time, median / worst',
        value: `${median(delays)} ms / ${Math.max(...delays)} ms`,
        note: `${delays.length} giveaways of 2 to 4 s; contract: within 5 s`,
      },
      {
        section: SECTION,
        measure: 'DynamoDB requests of the end with 10,000 entrants',
        value: String(endRequests),
        note: 'entries close, the winners drawn from the count, the entrants read in Query pages and hashed, round 1 kept, the flags set (bench/entrants.ts: the curve)',
      },
    ];
  } finally {
    await service.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printRows(await runGiveawaysBench());
}

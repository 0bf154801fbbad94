import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { scheduledJob } from '#shared/scheduler/index.js';
import { dueItemKey, PARKED_INDEX_PARTITION, producerInputs, shardOf } from '#shared/scheduler/keys.js';
import { getDue, queryDue, queryParked } from '#shared/scheduler/store.js';
import { runDeadline, runWillFollow } from '#shared/scheduler/scheduler.js';
import { cancel, requestLater } from '#shared/scheduler/table-only.js';
import { TIMINGS, countRequests, startTable, testScheduler } from './harness.js';
// polls.refresh spreads because the polls module declares it so where it writes the job's ID.
import '#functions/polls/jobs.js';

let table: { stop(): Promise<void> };
beforeAll(async () => {
  table = await startTable();
});
afterAll(() => table.stop());

let n = 0;
const key = () => `k${++n}`;

describe('producing', () => {
  it('sends work due soon right away, delayed to its due time, and never twice while it is on its way', async () => {
    const t = testScheduler();
    const k = key();
    await t.scheduler.scheduleAt('job.a', k, t.clock.now + 4_500, { x: 1 });
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]).toMatchObject({ job: 'job.a', delaySeconds: 5 });
    expect(JSON.parse(t.sent[0]!.body)).toEqual({ job: 'job.a', key: k, due_at: t.clock.now + 4_500 });
    await t.scheduler.produce('job.a');
    expect(t.sent).toHaveLength(1);
  });

  it('marks work due soon as sent in the same write that schedules it: one table request, and the producer leaves it alone', async () => {
    const t = testScheduler();
    const k = key();
    const requests = countRequests();
    await t.scheduler.scheduleAt('job.a2', k, t.clock.now + 2_000);
    await t.scheduler.requestSoon('job.a3', k, 1_000);
    expect(requests.take()).toEqual(['UpdateItemCommand', 'UpdateItemCommand']);
    expect(t.sent.map((m) => m.job)).toEqual(['job.a2', 'job.a3']);
    expect(await getDue('job.a2', k)).toMatchObject({ phase: 'dispatched', dispatches: 1 });
    expect(await getDue('job.a3', k)).toMatchObject({ phase: 'dispatched', dispatches: 1, gen: 1 });
    await t.scheduler.produce('job.a2');
    await t.scheduler.produce('job.a3');
    expect(t.sent).toHaveLength(2);
    requests.stop();
  });

  it('leaves later work in the table until it falls within the horizon, then sends it once', async () => {
    const t = testScheduler();
    const k = key();
    const due = t.clock.now + TIMINGS.horizonMs + 30_000;
    await t.scheduler.scheduleAt('job.b', k, due);
    await t.scheduler.produce('job.b');
    expect(t.sent).toHaveLength(0);
    t.advance(40_000);
    const first = await t.scheduler.produce('job.b');
    expect(first.dispatched).toBe(1);
    expect(t.sent[0]!.delaySeconds).toBe(Math.ceil((due - t.clock.now) / 1000));
    expect((await t.scheduler.produce('job.b')).dispatched).toBe(0);
  });

  it('sends a message again when the one sent was lost (its lease ended without a consumer)', async () => {
    const t = testScheduler();
    const k = key();
    await t.scheduler.scheduleAt('job.c', k, t.clock.now + 1000);
    expect(t.sent).toHaveLength(1);
    t.advance(1000 + TIMINGS.leaseMs - 1);
    await t.scheduler.produce('job.c');
    expect(t.sent).toHaveLength(1);
    t.advance(2);
    await t.scheduler.produce('job.c');
    expect(t.sent).toHaveLength(2);
    // Local mode's first run after a restart does not wait for the lease.
    await t.scheduler.scheduleAt('job.c', key(), t.clock.now + 500);
    await t.scheduler.produce('job.c', { recover: true });
    expect(t.sent.length).toBeGreaterThanOrEqual(4);
  });

  it('parks an item sent too many times without completing, instead of sending it for ever', async () => {
    const t = testScheduler();
    const k = key();
    await t.scheduler.scheduleAt('job.d', k, t.clock.now);
    for (let i = 0; i < TIMINGS.maxDispatches + 2; i++) {
      t.advance(TIMINGS.leaseMs + 1);
      await t.scheduler.produce('job.d');
    }
    expect(t.sent).toHaveLength(TIMINGS.maxDispatches);
    expect(await getDue('job.d', k)).toMatchObject({ phase: 'dead' });
  });
});

describe('consuming', () => {
  it('acts once on a message delivered twice, one after the other or both at once', async () => {
    const t = testScheduler();
    const handled: string[] = [];
    const consume = t.scheduler.consumer('job.e', async (work) => void handled.push(work.key));
    const [a, b] = [key(), key()];
    await t.scheduler.scheduleAt('job.e', a, t.clock.now);
    await t.scheduler.scheduleAt('job.e', b, t.clock.now);
    const [ma, mb] = t.sent;
    expect(await consume(t.eventOf([ma!]))).toEqual({ batchItemFailures: [] });
    expect(await consume(t.eventOf([ma!]))).toEqual({ batchItemFailures: [] });
    await Promise.all([consume(t.eventOf([mb!])), consume(t.eventOf([mb!])), consume(t.eventOf([mb!, mb!]))]);
    expect(handled.sort()).toEqual([a, b].sort());
    expect(await getDue('job.e', a)).toBeNull();
  });

  it('acts once when a consumer died halfway: the claim holds off duplicates, then the work is sent again', async () => {
    const t = testScheduler();
    const k = key();
    let runs = 0;
    await t.scheduler.scheduleAt('job.f', k, t.clock.now);
    const message = t.sent[0]!;
    const dying = t.scheduler.consumer('job.f', () => new Promise<void>(() => undefined)); // claims, never finishes
    void dying(t.eventOf([message]));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const healthy = t.scheduler.consumer('job.f', async () => void runs++);
    await healthy(t.eventOf([message], 2));
    expect(runs).toBe(0);
    t.advance(TIMINGS.leaseMs + 1);
    await t.scheduler.produce('job.f');
    expect(t.sent).toHaveLength(2);
    await healthy(t.eventOf([t.sent[1]!]));
    await healthy(t.eventOf([t.sent[1]!]));
    expect(runs).toBe(1);
  });

  it('reports a failed message alone, lets the queue retry it, and parks it after its last delivery', async () => {
    const t = testScheduler();
    const [good, bad] = [key(), key()];
    const done: string[] = [];
    const consume = t.scheduler.consumer('job.g', async (work) => {
      if (work.key === bad) throw new Error('platform down');
      done.push(work.key);
    });
    await t.scheduler.scheduleAt('job.g', good, t.clock.now);
    await t.scheduler.scheduleAt('job.g', bad, t.clock.now);
    const messages = [...t.sent];
    const event = t.eventOf(messages);
    const badId = event.Records[1]!.messageId;
    expect(await consume(event)).toEqual({ batchItemFailures: [{ itemIdentifier: badId }] });
    expect(done).toEqual([good]);
    expect(await getDue('job.g', bad)).toMatchObject({ phase: 'retrying', failures: 1, last_error: 'Error: platform down' });
    // The producer leaves it to the queue's retry meanwhile.
    await t.scheduler.produce('job.g');
    expect(t.sent).toHaveLength(2);
    expect((await consume(t.eventOf([messages[1]!], 2))).batchItemFailures).toHaveLength(1);
    expect((await consume(t.eventOf([messages[1]!], TIMINGS.maxReceiveCount))).batchItemFailures).toHaveLength(1);
    const dead = await getDue('job.g', bad);
    expect(dead).toMatchObject({ phase: 'dead', failures: 3 });
    // Out of its job's partitions, into the parked one (the operator's list).
    expect(dead?.gsi1pk).toBe(PARKED_INDEX_PARTITION);
    expect((await queryParked()).map((item) => item.work_key)).toContain(bad);
    t.advance(TIMINGS.leaseMs * 10);
    await t.scheduler.produce('job.g');
    expect(t.sent).toHaveLength(2);
  });

  it('succeeds on a retry after a failure, acting once', async () => {
    const t = testScheduler();
    const k = key();
    let attempts = 0;
    const consume = t.scheduler.consumer('job.h', async () => {
      attempts++;
      if (attempts === 1) throw new Error('transient');
    });
    await t.scheduler.scheduleAt('job.h', k, t.clock.now);
    const message = t.sent[0]!;
    expect((await consume(t.eventOf([message]))).batchItemFailures).toHaveLength(1);
    t.advance(TIMINGS.retryMs);
    expect((await consume(t.eventOf([message], 2))).batchItemFailures).toHaveLength(0);
    expect(await consume(t.eventOf([message], 3))).toEqual({ batchItemFailures: [] });
    expect(attempts).toBe(2);
    expect(await getDue('job.h', k)).toBeNull();
  });

  it('gives up a run still going at its deadline (the time its function has left, less a margin): its signal ends, its claim is released, and the work runs again', async () => {
    const t = testScheduler();
    const k = key();
    let attempts = 0;
    let signalled: unknown = null;
    const consume = t.scheduler.consumer('job.deadline', async (work) => {
      attempts++;
      if (attempts > 1) return;
      work.signal.addEventListener('abort', () => (signalled = work.signal.reason));
      await new Promise(() => undefined);
    });
    await t.scheduler.scheduleAt('job.deadline', k, t.clock.now);
    const message = t.sent[0]!;
    const context = { getRemainingTimeInMillis: () => 300 };
    expect((await consume(t.eventOf([message]), context)).batchItemFailures).toHaveLength(1);
    expect(signalled).toMatchObject({ name: 'TimeoutError' });
    const item = await getDue('job.deadline', k);
    expect(item).toMatchObject({ phase: 'retrying', failures: 1, last_error: expect.stringContaining('deadline') });
    expect(item?.claim_id).toBeUndefined();
    t.advance(TIMINGS.retryMs);
    expect((await consume(t.eventOf([message], 2), context)).batchItemFailures).toHaveLength(0);
    expect(attempts).toBe(2);
    expect(await getDue('job.deadline', k)).toBeNull();
  });

  it('signals a run and gives it up a margin before its time limit: 2 s each with 30 s left, a tenth each with less', () => {
    expect(runDeadline(30_000)).toEqual({ signalAt: 26_000, stopAt: 28_000 });
    expect(runDeadline(1_000)).toEqual({ signalAt: 800, stopAt: 900 });
  });

  it('reports a message that is not due work as failed without touching the others', async () => {
    const t = testScheduler();
    const k = key();
    const consume = t.scheduler.consumer('job.i', async () => undefined);
    await t.scheduler.scheduleAt('job.i', k, t.clock.now);
    const event = t.eventOf([t.sent[0]!, { job: 'job.i', body: 'not json', delaySeconds: 0 }]);
    expect(await consume(event)).toEqual({ batchItemFailures: [{ itemIdentifier: event.Records[1]!.messageId }] });
    expect(await getDue('job.i', k)).toBeNull();
  });

  it('does nothing for cancelled work, and follows a timer moved later', async () => {
    const t = testScheduler();
    const [cancelled, moved] = [key(), key()];
    const handled: string[] = [];
    const consume = t.scheduler.consumer('job.j', async (work) => void handled.push(work.key));
    await t.scheduler.scheduleAt('job.j', cancelled, t.clock.now);
    await cancel('job.j', cancelled);
    await consume(t.eventOf([t.sent[0]!]));
    await t.scheduler.scheduleAt('job.j', moved, t.clock.now + 1000);
    const early = t.sent[1]!;
    await t.scheduler.scheduleAt('job.j', moved, t.clock.now + 30_000);
    t.advance(1000);
    await consume(t.eventOf([early]));
    expect(handled).toEqual([]);
    t.advance(29_000);
    await consume(t.eventOf([t.sent[2]!]));
    expect(handled).toEqual([moved]);
  });

  it('runs a timer moved later during its run at the new time, not at the end of the run', async () => {
    const t = testScheduler();
    const k = key();
    const runs: number[] = [];
    const consume = t.scheduler.consumer('job.j2', async () => {
      runs.push(t.clock.now);
      if (runs.length === 1) await t.scheduler.scheduleAt('job.j2', k, t.clock.now + 120_000);
    });
    await t.scheduler.scheduleAt('job.j2', k, t.clock.now);
    await consume(t.eventOf([t.sent[0]!]));
    const due = (await getDue('job.j2', k))!;
    expect(due).toMatchObject({ phase: 'pending', due_at: runs[0]! + 120_000 });
    expect(due.claim_id).toBeUndefined();
    t.advance(120_000);
    await t.scheduler.produce('job.j2');
    await consume(t.eventOf([t.sent.at(-1)!]));
    expect(runs).toEqual([runs[0], runs[0]! + 120_000]);
    expect(await getDue('job.j2', k)).toBeNull();
  });
});

describe('coalesced requests', () => {
  it('turns a burst of requests into one run, and runs once more (spaced) for requests made during a run', async () => {
    const t = testScheduler();
    const k = key();
    const runs: number[] = [];
    let during: (() => Promise<void>) | null = null;
    const consume = t.scheduler.consumer(
      'job.k',
      async () => {
        runs.push(t.clock.now);
        if (during) {
          const request = during;
          during = null;
          await request();
        }
      },
      { minSpacingMs: 1500 },
    );
    await Promise.all(Array.from({ length: 20 }, () => t.scheduler.requestSoon('job.k', k, 1000)));
    expect(t.sent).toHaveLength(1);
    t.advance(1000);
    during = () => t.scheduler.requestSoon('job.k', k, 1000);
    await consume(t.eventOf([t.sent[0]!]));
    expect(runs).toHaveLength(1);
    expect(t.sent).toHaveLength(2);
    expect(t.sent[1]!.delaySeconds).toBe(2);
    t.advance(1500);
    await consume(t.eventOf([t.sent[1]!]));
    expect(runs).toHaveLength(2);
    expect(await getDue('job.k', k)).toBeNull();
    await t.scheduler.requestSoon('job.k', k, 1000);
    expect(t.sent).toHaveLength(3);
  });

  it('runs once more after the next run when asked while that run may be starting, and later askers see it and need not ask', async () => {
    const t = testScheduler();
    const k = key();
    let runs = 0;
    const consume = t.scheduler.consumer('job.f', async () => void runs++, { minSpacingMs: 1500 });
    await t.scheduler.requestSoon('job.f', k, 1000);
    t.advance(800);
    // A caller read the item due within its margin, then saved its work: the run may already be under way.
    const seen = await getDue('job.f', k);
    expect(runWillFollow(seen, 750, t.clock.now)).toBe(false);
    await t.scheduler.requestSoon('job.f', k, 1000, {}, seen);
    const after = await getDue('job.f', k);
    expect(after).toMatchObject({ phase: 'dispatched', follow: true, due_at: seen!.due_at });
    expect(runWillFollow(after, 750, t.clock.now)).toBe(true);
    t.advance(200);
    const requests = countRequests();
    await consume(t.eventOf([t.sent[0]!]));
    // The claim, then the rerun's release at once: the claim showed the follow-up, so no delete is tried.
    expect(requests.take()).toEqual(['UpdateItemCommand', 'UpdateItemCommand']);
    requests.stop();
    expect(runs).toBe(1);
    // The follow-up is sent, spaced after the run, and the flag is gone with it.
    expect(t.sent).toHaveLength(2);
    expect(t.sent[1]!.delaySeconds).toBe(2);
    expect(await getDue('job.f', k)).toMatchObject({ phase: 'dispatched', due_at: t.clock.now + 1500 });
    expect((await getDue('job.f', k))!.follow).toBeUndefined();
    t.advance(1500);
    await consume(t.eventOf([t.sent[1]!]));
    expect(runs).toBe(2);
    expect(await getDue('job.f', k)).toBeNull();
  });

  it('asks afresh when the item it saw is no longer waiting (its run took it, or it is gone)', async () => {
    const t = testScheduler();
    const k = key();
    await t.scheduler.requestSoon('job.g', k, 0);
    const seen = await getDue('job.g', k);
    await cancel('job.g', k);
    await t.scheduler.requestSoon('job.g', k, 1000, {}, seen);
    expect(await getDue('job.g', k)).toMatchObject({ phase: 'dispatched', gen: 1 });
    expect((await getDue('job.g', k))!.follow).toBeUndefined();
  });

  it('asks for work minutes away without sending anything, coalesced like requestSoon, and cancels it', async () => {
    const t = testScheduler();
    const k = key();
    const before = Date.now();
    await requestLater('job.m', k, 600_000, { x: 1 });
    const first = await getDue('job.m', k);
    expect(first).toMatchObject({ phase: 'pending', gen: 1, payload: { x: 1 } });
    expect(first!.due_at).toBeGreaterThanOrEqual(before + 600_000);
    await requestLater('job.m', k, 60_000);
    expect(await getDue('job.m', k)).toMatchObject({ phase: 'pending', gen: 2, due_at: first!.due_at });
    expect(t.sent).toEqual([]);
    await cancel('job.m', k);
    expect(await getDue('job.m', k)).toBeNull();
  });

  it('lets callers asking at the same moment share one write, and the next rely on the run it promised', async () => {
    const t = testScheduler();
    const k = key();
    await Promise.all(Array.from({ length: 10 }, () => t.scheduler.requestSoon('job.h', k, 1000)));
    expect(await getDue('job.h', k)).toMatchObject({ gen: 1 });
    // The item that write left is due beyond the start margin: its run sees work saved now, so asking again writes nothing.
    await t.scheduler.requestSoon('job.h', k, 1000);
    expect(await getDue('job.h', k)).toMatchObject({ gen: 1 });
    // Work due at once promises no later run: each request is written.
    const now = key();
    await t.scheduler.requestSoon('job.h', now, 0);
    await t.scheduler.requestSoon('job.h', now, 0);
    expect(await getDue('job.h', now)).toMatchObject({ gen: 2 });
  });

  it('spaces the rerun of work asked for during a run by the spacing its handler answers, not the job default', async () => {
    const t = testScheduler();
    const k = key();
    let runs = 0;
    const consume = t.scheduler.consumer(
      'job.w',
      async () => {
        // Work arrives while the run goes on; the handler says how far apart the next run must be.
        if (++runs === 1) await requestLater('job.w', k, 0);
        return { spacingMs: 6000 };
      },
      { minSpacingMs: 1500 },
    );
    await t.scheduler.requestSoon('job.w', k, 0);
    await consume(t.eventOf([t.sent[0]!]));
    expect(t.sent).toHaveLength(2);
    expect(t.sent[1]!.delaySeconds).toBe(6);
    t.advance(6000);
    await consume(t.eventOf([t.sent[1]!]));
    expect(runs).toBe(2);
    expect(await getDue('job.w', k)).toBeNull();
  });

  it('runs again at the time a handler asks for', async () => {
    const t = testScheduler();
    const k = key();
    let runs = 0;
    const consume = t.scheduler.consumer('job.l', async () => (++runs === 1 ? { next: t.clock.now + 2000 } : undefined));
    await t.scheduler.requestSoon('job.l', k, 0);
    await consume(t.eventOf([t.sent[0]!]));
    expect(t.sent).toHaveLength(2);
    expect(t.sent[1]!.delaySeconds).toBe(2);
    t.advance(2000);
    await consume(t.eventOf([t.sent[1]!]));
    expect(runs).toBe(2);
    expect(await getDue('job.l', k)).toBeNull();
  });
});

describe('index partitions', () => {
  /** The first minute of a ten, when producers also read the shards their job does not use. */
  const SWEEP_MINUTE = 1_900_000_200_000;
  const strayIn = (job: string, k: string, shard: number) =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: dueItemKey(job, k),
        UpdateExpression: 'SET gsi1pk = :p',
        ExpressionAttributeValues: { ':p': `DUEIDX#${job}#${shard}` },
      }),
    );

  it('keeps a job that does not spread in one partition, read with one Query a run; a spread job uses four', async () => {
    const t = testScheduler(SWEEP_MINUTE + 60_000);
    const k = key();
    await t.scheduler.scheduleAt('job.one', k, t.clock.now + 3_600_000);
    await t.scheduler.requestSoon('polls.refresh', k, 3_600_000);
    expect((await getDue('job.one', k))!.gsi1pk).toBe('DUEIDX#job.one#0');
    expect((await getDue('polls.refresh', k))!.gsi1pk).toBe(`DUEIDX#polls.refresh#${shardOf(k, 4)}`);
    const requests = countRequests();
    await t.scheduler.produce('job.one');
    expect(requests.take()).toEqual(['QueryCommand']);
    await t.scheduler.produce('polls.refresh');
    expect(requests.take()).toEqual(Array(4).fill('QueryCommand'));
    requests.stop();
  });

  it("runs a spread job's producer once per shard, each run reading its own shard with one Query", async () => {
    const t = testScheduler(SWEEP_MINUTE);
    const k = key();
    const shard = shardOf(k, 4);
    expect(producerInputs('polls.refresh')).toEqual([{ shard: 0 }, { shard: 1 }, { shard: 2 }, { shard: 3 }]);
    expect(producerInputs('polls.close')).toEqual([{}]);
    await t.scheduler.requestSoon('polls.refresh', k, 10 * 60_000);
    t.advance(10 * 60_000);
    const requests = countRequests();
    // Another shard's run neither sees nor sends the item, even in a sweep minute.
    expect(await t.scheduler.produce('polls.refresh', { shard: (shard + 1) % 4 })).toEqual({ dispatched: 0, parked: 0 });
    expect(requests.take()).toEqual(['QueryCommand']);
    expect(await t.scheduler.produce('polls.refresh', { shard })).toEqual({ dispatched: 1, parked: 0 });
    expect(requests.take()[0]).toBe('QueryCommand');
    requests.stop();
    expect(t.sent.map((m) => JSON.parse(m.body).key)).toEqual([k]);
  });

  it("takes the shard from the producer's event; any other event runs every shard", async () => {
    const { produce } = scheduledJob('polls.refresh', async () => undefined);
    const requests = countRequests();
    await produce({ shard: 2 });
    expect(requests.take()).toEqual(['QueryCommand']);
    for (const event of [{ 'detail-type': 'Scheduled Event', source: 'aws.events' }, { shard: 'x' }, { shard: -1 }, null]) {
      await produce(event);
      expect(requests.take()).toEqual(Array(4).fill('QueryCommand'));
    }
    requests.stop();
  });

  it('finds work another layout left in another shard at the next sweep: sends what falls due before the sweep after, moves the rest', async () => {
    const t = testScheduler(SWEEP_MINUTE - 120_000);
    const [soon, later] = [key(), key()];
    await t.scheduler.scheduleAt('job.stray', soon, t.clock.now + 5 * 60_000);
    await t.scheduler.scheduleAt('job.stray', later, t.clock.now + 30 * 60_000);
    await strayIn('job.stray', soon, 2);
    await strayIn('job.stray', later, 3);
    // Not a sweep: only shard 0 is read.
    expect(await t.scheduler.produce('job.stray')).toEqual({ dispatched: 0, parked: 0 });
    t.advance(120_000);
    expect(await t.scheduler.produce('job.stray')).toEqual({ dispatched: 1, parked: 0 });
    expect(t.sent).toEqual([{ job: 'job.stray', body: JSON.stringify({ job: 'job.stray', key: soon, due_at: SWEEP_MINUTE + 3 * 60_000 }), delaySeconds: 180 }]);
    expect(await getDue('job.stray', soon)).toMatchObject({ phase: 'dispatched', gsi1pk: 'DUEIDX#job.stray#0' });
    expect(await getDue('job.stray', later)).toMatchObject({ phase: 'pending', gsi1pk: 'DUEIDX#job.stray#0' });
    expect(await queryDue('job.stray', 2, Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    expect(await queryDue('job.stray', 3, Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    t.advance(3 * 60_000);
    await t.scheduler.consumer('job.stray', async () => undefined)(t.eventOf([t.sent[0]!]));
    expect(await getDue('job.stray', soon)).toBeNull();
    // The moved item is sent by an ordinary run when it falls within the horizon.
    t.advance(25 * 60_000 - 30_000);
    expect(await t.scheduler.produce('job.stray')).toEqual({ dispatched: 1, parked: 0 });
    expect(t.sent[1]).toMatchObject({ delaySeconds: 30 });
  });

  it('moves a stray item to its own shard at its next change', async () => {
    const t = testScheduler(SWEEP_MINUTE + 60_000);
    const k = key();
    await t.scheduler.scheduleAt('job.moved', k, t.clock.now + 1_000);
    await strayIn('job.moved', k, 1);
    const [message] = t.sent;
    await t.scheduler.consumer('job.moved', async () => ({ next: t.clock.now + 3_600_000 }))(t.eventOf([message!]));
    expect(await getDue('job.moved', k)).toMatchObject({ phase: 'pending', gsi1pk: 'DUEIDX#job.moved#0' });
  });
});

describe('whether a run will follow', () => {
  const now = 1_000_000;
  it('says yes for work due beyond the margin, or a live run asked for again since it began', () => {
    expect(runWillFollow(null, 750, now)).toBe(false);
    expect(runWillFollow({ phase: 'pending', due_at: now + 1000, gen: 1 }, 750, now)).toBe(true);
    expect(runWillFollow({ phase: 'dispatched', due_at: now + 500, gen: 1 }, 750, now)).toBe(false);
    expect(runWillFollow({ phase: 'claimed', due_at: now - 10, gen: 3, claim_gen: 2, claim_until: now + 5000 }, 750, now)).toBe(true);
    // Nothing asked since the run began: it ends the work, nothing follows.
    expect(runWillFollow({ phase: 'claimed', due_at: now - 10, gen: 2, claim_gen: 2, claim_until: now + 5000 }, 750, now)).toBe(false);
    // The claim runs out before the margin: the next run may already be under way.
    expect(runWillFollow({ phase: 'claimed', due_at: now - 10, gen: 3, claim_gen: 2, claim_until: now + 500 }, 750, now)).toBe(false);
    expect(runWillFollow({ phase: 'retrying', due_at: now + 5000, gen: 3, claim_gen: 2 }, 750, now)).toBe(false);
    // A follow-up was asked for: a run after the next one is sure.
    expect(runWillFollow({ phase: 'dispatched', due_at: now + 500, gen: 2, follow: true }, 750, now)).toBe(true);
    expect(runWillFollow({ phase: 'claimed', due_at: now - 10, gen: 2, claim_gen: 2, claim_until: now + 5000, follow: true }, 750, now)).toBe(true);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { LocalQueue } from '#infra/local/jobs/queue.js';
import { type LocalJobs, startLocalJobs } from '#infra/local/jobs/runner.js';
import { jobSender } from '#shared/scheduler/sender.js';
import type { FixtureLog } from './fixture-job.js';

function clockedQueue(options: { visibilityTimeoutMs?: number; maxReceiveCount?: number } = {}) {
  const clock = { now: 1_000 };
  const deadLetters = new LocalQueue({ name: 'dlq', visibilityTimeoutMs: 1000, now: () => clock.now });
  const queue = new LocalQueue({
    name: 'q',
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? 1000,
    maxReceiveCount: options.maxReceiveCount ?? 3,
    deadLetters,
    now: () => clock.now,
  });
  return { clock, queue, deadLetters };
}

describe('the in-process queue', () => {
  it('delivers a message only after its delay', () => {
    const { clock, queue } = clockedQueue();
    queue.send('later', 2);
    queue.send('now');
    const now = queue.receive(10);
    expect(now.map((d) => d.body)).toEqual(['now']);
    queue.delete(now[0]!.receiptHandle);
    clock.now += 1999;
    expect(queue.receive(10)).toEqual([]);
    clock.now += 1;
    expect(queue.receive(10).map((d) => d.body)).toEqual(['later']);
    expect(() => queue.send('x', 901)).toThrow(/DelaySeconds/);
  });

  it('hides a received message for the visibility timeout, then delivers it again with a higher receive count', () => {
    const { clock, queue } = clockedQueue({ visibilityTimeoutMs: 500 });
    queue.send('m');
    const first = queue.receive(1)[0]!;
    expect(first.receiveCount).toBe(1);
    expect(queue.receive(1)).toEqual([]);
    clock.now += 500;
    const second = queue.receive(1)[0]!;
    expect(second.receiveCount).toBe(2);
    // The first receipt is stale: deleting with it does nothing.
    expect(queue.delete(first.receiptHandle)).toBe(false);
    expect(queue.delete(second.receiptHandle)).toBe(true);
    expect(queue.size).toBe(0);
  });

  it('moves a message to the dead-letter queue after maxReceiveCount receives, keeping the others flowing', () => {
    const { clock, queue, deadLetters } = clockedQueue({ visibilityTimeoutMs: 100, maxReceiveCount: 2 });
    queue.send('poison');
    for (let i = 0; i < 2; i++) {
      expect(queue.receive(1).map((d) => d.body)).toEqual(['poison']);
      clock.now += 100;
    }
    queue.send('fine');
    expect(queue.receive(10).map((d) => d.body)).toEqual(['fine']);
    expect(queue.size).toBe(1);
    expect(deadLetters.list().map((m) => [m.body, m.receiveCount])).toEqual([['poison', 2]]);
  });

  it('hands out at most the batch size', () => {
    const { queue } = clockedQueue();
    for (let i = 0; i < 15; i++) queue.send(`m${i}`);
    expect(queue.receive(10)).toHaveLength(10);
    expect(queue.receive(10)).toHaveLength(5);
  });
});

describe('the local job runner', () => {
  let jobs: LocalJobs | null = null;
  afterEach(async () => {
    await jobs?.stop();
    jobs = null;
  });

  it('runs consumers with SQS events, deletes what succeeded, retries partial failures into the dead-letter queue, and runs producers', async () => {
    const log = ((globalThis as { __fixtureJob?: FixtureLog }).__fixtureJob ??= { handled: [], deliveries: {}, produced: [] });
    jobs = await startLocalJobs({
      jobs: [{ id: 'test.fixture', file: 'test/unit/scheduler/fixture-job.ts', schedule: 'rate(1 minute)', batchSize: 10 }],
      visibilityTimeoutMs: 50,
      maxReceiveCount: 3,
      produceEveryMs: 100,
    });
    // The first producer run asks to recover what a previous process had sent.
    expect(log.produced[0]).toEqual({ recover: true });
    const sender = jobSender();
    expect(sender.canSend('test.fixture')).toBe(true);
    expect(sender.canSend('other.job')).toBe(false);
    await sender.send('test.fixture', 'ok-1', 0);
    await sender.send('test.fixture', 'fail-1', 0);
    await sender.send('test.fixture', 'ok-2', 1);
    const { queue, deadLetters } = jobs.queues.get('test.fixture')!;
    const deadline = Date.now() + 5000;
    while ((deadLetters.size === 0 || log.handled.length < 2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(log.handled.sort()).toEqual(['ok-1', 'ok-2']);
    expect(log.deliveries['fail-1']).toBe(3);
    expect(deadLetters.list().map((m) => m.body)).toEqual(['fail-1']);
    expect(queue.size).toBe(0);
    expect(log.produced.length).toBeGreaterThan(1);
  });

  it('gives up a batch still running at the job time limit, as Lambda does at its timeout: the message comes back and the queue keeps flowing', async () => {
    const log = ((globalThis as { __fixtureJob?: FixtureLog }).__fixtureJob ??= { handled: [], deliveries: {}, produced: [] });
    jobs = await startLocalJobs({
      jobs: [{ id: 'test.hanging', file: 'test/unit/scheduler/fixture-job.ts', batchSize: 1 }],
      visibilityTimeoutMs: 50,
      maxReceiveCount: 2,
      concurrency: 1,
      jobTimeLimitMs: 200,
    });
    const sender = jobSender();
    await sender.send('test.hanging', 'hang-1', 0);
    await sender.send('test.hanging', 'ok-after-hang', 0);
    const { deadLetters } = jobs.queues.get('test.hanging')!;
    const deadline = Date.now() + 5000;
    while ((!log.handled.includes('ok-after-hang') || deadLetters.size === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    // One consumer at a time: the second message ran only because the hanging batch was given up, twice, then sent to the dead letters.
    expect(log.handled).toContain('ok-after-hang');
    expect(log.deliveries['hang-1']).toBe(2);
    expect(deadLetters.list().map((m) => m.body)).toEqual(['hang-1']);
  });

  it("runs a spread job's producer once per shard, as its schedule does in AWS", async () => {
    const log = ((globalThis as { __fixtureJob?: FixtureLog }).__fixtureJob ??= { handled: [], deliveries: {}, produced: [] });
    log.produced.length = 0;
    jobs = await startLocalJobs({
      jobs: [{ id: 'polls.refresh', file: 'test/unit/scheduler/fixture-job.ts', schedule: 'rate(1 minute)', batchSize: 10 }],
      produceEveryMs: 60_000,
    });
    expect(log.produced).toEqual([0, 1, 2, 3].map((shard) => ({ shard, recover: true })));
    await jobs.produceNow();
    expect(log.produced.slice(4)).toEqual([0, 1, 2, 3].map((shard) => ({ shard, source: 'local.schedule' })));
  });
});

import type { SQSEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler, JOB_FILES, produce } from '#functions/job-queue.js';
import { jobs } from '#functions/jobs.js';
import { scheduler } from '#shared/scheduler/index.js';
import { jobQueueOf, SHARED_QUEUE, SOURCES_QUEUE } from '#shared/scheduler/job.js';
import { setJobSender } from '#shared/scheduler/sender.js';
import { startTable } from './harness.js';

let table: { stop(): Promise<void> };
const sent: { job: string; body: string }[] = [];

beforeAll(async () => {
  table = await startTable();
  setJobSender({ canSend: () => true, send: async (job, body) => void sent.push({ job, body }) });
});
afterEach(() => {
  sent.length = 0;
  delete process.env.SCHEDULER_HORIZON_SECONDS;
});
afterAll(async () => {
  setJobSender(null);
  await table.stop();
});

let id = 0;
const eventOf = (...bodies: string[]): SQSEvent => ({
  Records: bodies.map((body) => ({
    messageId: `m${++id}`,
    receiptHandle: `r${id}`,
    body,
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:0:shared',
    awsRegion: 'local',
  })),
});
const message = (job: string, key: string) => JSON.stringify({ job, key, due_at: 1 });

describe('a shared job queue', () => {
  it('knows the file of every job, and of no other', async () => {
    expect(Object.keys(JOB_FILES).sort()).toEqual(jobs.map((job) => job.file).sort());
    for (const job of jobs) expect(typeof (await JOB_FILES[job.file]!()).handler, job.id).toBe('function');
  });

  it("puts today's jobs in three queues: the shared one, the source pollers', and the capped announcements alone", () => {
    const queues = new Map<string, string[]>();
    for (const job of jobs) queues.set(jobQueueOf(job), [...(queues.get(jobQueueOf(job)) ?? []), job.id]);
    expect([...queues.keys()].sort()).toEqual(['socials.announce', SHARED_QUEUE, SOURCES_QUEUE].sort());
    expect(queues.get(SOURCES_QUEUE)!.sort()).toEqual(['socials.poll', 'socials.streams']);
  });

  it('hands each message to the job it names, and fails only the messages naming no job, each alone', async () => {
    const event = eventOf(
      message('polls.close', 'g#1'),
      'not json',
      message('giveaways.end', 'g#2'),
      message('nobody.knows', 'g#3'),
      message('polls.close', 'g#4'),
    );
    // Nothing is due under these keys: each job's own consumer finds nothing to do and succeeds, as it would fail a message not its own.
    const { batchItemFailures } = await handler(event);
    expect(batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual([event.Records[1]!.messageId, event.Records[3]!.messageId].sort());
  });

  it("fails only the messages of a job whose code does not load, and runs the other jobs' messages", async () => {
    const files = JOB_FILES as Record<string, () => Promise<unknown>>;
    const closeFile = 'functions/polls/jobs/close.ts';
    const real = files[closeFile]!;
    files[closeFile] = () => Promise.reject(new Error('the bundle is broken'));
    try {
      const event = eventOf(message('polls.close', 'g#5'), message('giveaways.end', 'g#6'), message('polls.close', 'g#7'));
      const { batchItemFailures } = await handler(event);
      expect(batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual([event.Records[0]!.messageId, event.Records[2]!.messageId].sort());
    } finally {
      files[closeFile] = real;
    }
  });
});

describe('the producer of every job', () => {
  it('sends the due work of the jobs its schedule names, each to its own job', async () => {
    const dueAt = Date.now() + 300_000;
    await scheduler.scheduleAt('polls.close', 'g#produced', dueAt);
    await scheduler.scheduleAt('giveaways.end', 'g#produced', dueAt);
    expect(sent).toEqual([]);
    process.env.SCHEDULER_HORIZON_SECONDS = '600';
    expect(await produce({ jobs: ['polls.close'] })).toMatchObject({ dispatched: 1 });
    expect(sent.map((s) => [s.job, JSON.parse(s.body).key])).toEqual([['polls.close', 'g#produced']]);
    expect(await produce({ jobs: ['polls.close'] })).toMatchObject({ dispatched: 0 });
    // EventBridge's own event names no jobs: every scheduled job is looked at.
    expect(await produce({})).toMatchObject({ dispatched: 1 });
    expect(sent.map((s) => s.job)).toEqual(['polls.close', 'giveaways.end']);
  });
});

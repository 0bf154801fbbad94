import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { db, resetDb } from '#shared/db/client.js';
import { type SchedulerTimings, createScheduler } from '#shared/scheduler/index.js';
import type { JobMessageSender } from '#shared/scheduler/sender.js';
import { ensureTable, startEmbeddedDynamo } from '#infra/local/table.js';

/** An in-memory table for scheduler tests (the real conditional writes, no AWS). */
export async function startTable(): Promise<{ stop(): Promise<void> }> {
  const { endpoint, close } = await startEmbeddedDynamo(null);
  const table = `scheduler-test-${process.pid}`;
  await ensureTable(endpoint, table);
  Object.assign(process.env, { TABLE_NAME: table, DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'local' });
  resetDb();
  return {
    async stop() {
      resetDb();
      await close();
    },
  };
}

export interface SentMessage {
  job: string;
  body: string;
  delaySeconds: number;
}

export const TIMINGS: SchedulerTimings = { leaseMs: 10_000, retryMs: 3_000, horizonMs: 60_000, maxReceiveCount: 3, maxDispatches: 4 };

/** A scheduler on a clock the test moves, sending into an array. */
export function testScheduler(start = 1_900_000_000_000) {
  const clock = { now: start };
  const sent: SentMessage[] = [];
  const sender: JobMessageSender = {
    canSend: () => true,
    send: async (job, body, delaySeconds) => void sent.push({ job, body, delaySeconds }),
  };
  const scheduler = createScheduler({
    now: () => clock.now,
    sender: () => sender,
    timings: () => TIMINGS,
    sleep: async (ms) => void (clock.now += ms),
  });
  let id = 0;
  /** An SQS event carrying these messages, as delivered for the `receiveCount`-th time. */
  const eventOf = (messages: SentMessage[], receiveCount = 1): SQSEvent => ({
    Records: messages.map(
      (m) =>
        ({
          messageId: `m-${++id}`,
          receiptHandle: `r-${id}`,
          body: m.body,
          attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:local:0:test',
          awsRegion: 'local',
        }) as SQSRecord,
    ),
  });
  return { clock, sent, scheduler, eventOf, advance: (ms: number) => void (clock.now += ms) };
}

let counters = 0;

/** The table requests this process sends from now on, by command name, until `stop()`. */
export function countRequests(): { take(): string[]; stop(): void } {
  let seen: string[] = [];
  const name = `countRequests${++counters}`;
  db().middlewareStack.add(
    (next, context) => (args) => {
      seen.push(context.commandName ?? '?');
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    take() {
      const taken = seen;
      seen = [];
      return taken;
    },
    stop: () => void db().middlewareStack.remove(name),
  };
}

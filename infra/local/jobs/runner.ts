import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { ROOT } from '#shared/http/load-handler.js';
import { outsideCall } from '#shared/platform/nonce.js';
import { producerInputs } from '#shared/scheduler/keys.js';
import { keyOfMessage, setDeadLetters } from '#shared/scheduler/dead-letters.js';
import { type JobMessageSender, setJobSender } from '#shared/scheduler/sender.js';
import { type Job, jobs as allJobs } from '#infra/jobs.js';
import { InFlight } from '../in-flight.js';
import { lambdaContext } from '../lambda-context.js';
import { type Delivery, LocalQueue } from './queue.js';

/**
 * Local mode's SQS and EventBridge: the same job table CDK deploys, run in
 * this process. Each job gets a queue and a dead-letter queue with the
 * deployed redrive policy, a consumer loop calling the job's `handler` with
 * SQS events (honouring `batchItemFailures`), and, for scheduled jobs, its
 * `produce` every second instead of every minute. Handlers send through the
 * same message sender interface as in AWS.
 */
export interface LocalJobsOptions {
  jobs?: readonly Job[];
  /** How often each producer runs. Default 1000 ms. */
  produceEveryMs?: number;
  /** Visibility timeout of every queue. Default 3000 ms. */
  visibilityTimeoutMs?: number;
  /** Receives before the dead-letter queue; default 5, as deployed. */
  maxReceiveCount?: number;
  /** Batches one job's consumer runs at once (Lambda scales out; so does this, a little). Default 4. */
  concurrency?: number;
  /**
   * How long one consumer batch may run, as a Lambda's timeout: its context
   * says so, and a batch still running then is given up as a Lambda's would
   * be (its messages come back after the visibility timeout). Default
   * `JOB_TIME_LIMIT_SECONDS`, else 30 s, the deployed consumers' timeout.
   */
  jobTimeLimitMs?: number;
}

/** The deployed consumers' timeout (infra/constructs/job-queues.ts), local mode's default job time limit. */
const DEFAULT_JOB_TIME_LIMIT_MS = 30_000;

/** A consumer batch still running at the job time limit. */
class JobTimeLimit extends Error {
  constructor(limitMs: number) {
    super(`the batch ran past the job time limit of ${limitMs} ms`);
  }
}

/** `JOB_TIME_LIMIT_SECONDS`, else the default. */
export function jobTimeLimitMs(): number {
  const seconds = Number(process.env.JOB_TIME_LIMIT_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : DEFAULT_JOB_TIME_LIMIT_MS;
}

/** What a job file exports. */
interface JobModule {
  handler: (event: SQSEvent, context?: unknown) => Promise<SQSBatchResponse | void>;
  produce?: (event?: unknown, context?: unknown) => Promise<unknown>;
}

export interface LocalJobQueues {
  job: Job;
  queue: LocalQueue;
  deadLetters: LocalQueue;
}

export interface LocalJobs {
  /** Job id -> its queues (tests look at them, e.g. the dead-letter queue). */
  queues: Map<string, LocalJobQueues>;
  /** Runs every producer once now (and waits for it). */
  produceNow(): Promise<void>;
  stop(): Promise<void>;
}

const QUEUE_ARN = (name: string) => `arn:aws:sqs:local:000000000000:${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

function sqsRecordOf(queue: LocalQueue, delivery: Delivery): SQSRecord {
  return {
    messageId: delivery.messageId,
    receiptHandle: delivery.receiptHandle,
    body: delivery.body,
    attributes: {
      ApproximateReceiveCount: String(delivery.receiveCount),
      SentTimestamp: String(delivery.sentAt),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(delivery.firstReceivedAt),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: QUEUE_ARN(queue.name),
    awsRegion: 'local',
  };
}

function logError(msg: string, fields: Record<string, unknown>): void {
  console.error(JSON.stringify({ level: 'error', msg, ...fields }));
}

/** Starts the queues, consumers and schedules of every job, and makes handlers send to them. */
export async function startLocalJobs(options: LocalJobsOptions = {}): Promise<LocalJobs> {
  const jobList = options.jobs ?? allJobs;
  const produceEveryMs = options.produceEveryMs ?? 1000;
  const visibilityTimeoutMs = options.visibilityTimeoutMs ?? 3000;
  const concurrency = options.concurrency ?? 4;
  const timeLimitMs = () => options.jobTimeLimitMs ?? jobTimeLimitMs();
  const queues = new Map<string, LocalJobQueues>();
  const timers = new Set<NodeJS.Timeout>();
  const running = new InFlight();
  let stopped = false;

  const track = <T>(work: Promise<T>): Promise<T> => running.track(work);

  const modules = new Map<string, Promise<JobModule>>();
  const moduleOf = (job: Job) => {
    let mod = modules.get(job.id);
    if (!mod) {
      mod = import(pathToFileURL(join(ROOT, job.file)).href) as Promise<JobModule>;
      modules.set(job.id, mod);
    }
    return mod;
  };

  for (const job of jobList) {
    const deadLetters = new LocalQueue({ name: `${job.id}-dlq`, visibilityTimeoutMs });
    const queue = new LocalQueue({ name: job.id, visibilityTimeoutMs, maxReceiveCount: options.maxReceiveCount ?? 5, deadLetters });
    queues.set(job.id, { job, queue, deadLetters });
  }

  const sender: JobMessageSender = {
    canSend: (jobId) => !stopped && queues.has(jobId),
    send: async (jobId, body, delaySeconds) => {
      const entry = queues.get(jobId);
      if (!entry || stopped) throw new Error(`local mode has no queue for job ${jobId}`);
      entry.queue.send(body, delaySeconds);
    },
  };
  setJobSender(sender);
  // Replaying parked work takes the replayed items' messages off these dead-letter queues, as it does off SQS.
  setDeadLetters({
    drop: async (jobId, keys) => queues.get(jobId)?.deadLetters.discard((body) => keys.has(keyOfMessage(body) ?? '')) ?? 0,
  });

  // Consumers: deliver whatever is visible, then sleep until the next message becomes visible or one is sent.
  for (const { job, queue } of queues.values()) {
    let inFlight = 0;
    let wake: NodeJS.Timeout | null = null;
    const runBatch = async (batch: Delivery[]) => {
      const event: SQSEvent = { Records: batch.map((d) => sqsRecordOf(queue, d)) };
      let failed = new Set<string>(batch.map((d) => d.messageId));
      const limitMs = timeLimitMs();
      let timer: NodeJS.Timeout | undefined;
      try {
        const mod = await moduleOf(job);
        const timedOut = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new JobTimeLimit(limitMs)), limitMs);
        });
        // As Lambda ends a function at its timeout: the batch is given up and its slot freed, whatever its handler still waits on.
        const result = await Promise.race([mod.handler(event, lambdaContext(`${job.id}-consumer`, limitMs)), timedOut]);
        failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      } catch (error) {
        // A thrown handler fails the whole batch, as with Lambda.
        if (error instanceof JobTimeLimit) logError('local jobs: consumer ran past the job time limit', { job: job.id, limit_ms: limitMs });
        else logError('local jobs: consumer threw', { job: job.id, error: error instanceof Error ? error.stack : String(error) });
      } finally {
        clearTimeout(timer);
      }
      for (const delivery of batch) if (!failed.has(delivery.messageId)) queue.delete(delivery.receiptHandle);
    };
    const pump = () => {
      if (stopped) return;
      if (wake) {
        clearTimeout(wake);
        timers.delete(wake);
        wake = null;
      }
      while (inFlight < concurrency) {
        const batch = queue.receive(job.batchSize);
        if (batch.length === 0) break;
        inFlight++;
        void track(runBatch(batch)).finally(() => {
          inFlight--;
          pump();
        });
      }
      const next = queue.nextVisibleAt();
      if (next !== null && inFlight < concurrency) {
        wake = setTimeout(pump, Math.max(5, next - Date.now()));
        timers.add(wake);
      }
    };
    // A request's send wakes the pump; the jobs it runs are not that request's own posts (shared/platform/nonce.ts).
    queue.onSend(() => outsideCall(() => setImmediate(pump)));
    pump();
  }

  // Schedules: every producer each `produceEveryMs`, never two runs of one job (or one shard of it) at once.
  const scheduled = jobList.filter((job) => job.schedule);
  const busy = new Set<string>();
  // As in AWS, a job that spreads gets one producer run per shard, at once (`producerInputs`).
  const runs = scheduled.flatMap((job) => producerInputs(job.id).map((input) => ({ job, input, id: `${job.id}#${input.shard ?? ''}` })));
  const produce = async ({ job, input, id }: (typeof runs)[number], recover: boolean) => {
    if (busy.has(id) || stopped) return;
    busy.add(id);
    try {
      const mod = await moduleOf(job);
      if (typeof mod.produce !== 'function') throw new Error(`${job.file} exports no produce`);
      await mod.produce({ ...input, ...(recover ? { recover: true } : { source: 'local.schedule' }) }, lambdaContext(`${job.id}-producer`, 60_000));
    } catch (error) {
      if (!stopped) logError('local jobs: producer failed', { job: job.id, error: error instanceof Error ? error.message : String(error) });
    } finally {
      busy.delete(id);
    }
  };
  // The first run re-sends what a previous process had sent but not finished: that process's queue is gone.
  await Promise.all(runs.map((run) => track(produce(run, true))));
  const interval = setInterval(() => {
    for (const run of runs) void track(produce(run, false));
  }, produceEveryMs);
  timers.add(interval);

  return {
    queues,
    produceNow: async () => {
      await Promise.all(runs.map((run) => produce(run, false)));
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      setJobSender(null);
      setDeadLetters(null);
      // Let running handlers finish (bounded), so none writes to a table that is closing.
      await running.settle(10_000);
    },
  };
}

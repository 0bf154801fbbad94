/**
 * Scheduled work (behaviour §9) as plain data, like the route tables.
 * Each job gets an SQS queue with a dead-letter queue and a consumer Lambda;
 * a job with a `schedule` also gets a producer Lambda fired by EventBridge.
 * Each module declares its rows in `functions/<module>/jobs.ts`;
 * `functions/jobs.ts` gathers them and local mode runs the same table in
 * process (`infra/local/jobs/`).
 */
export interface Job {
  /** `module.job`, unique; CDK construct IDs are made from it. Written once, in its module's `jobs.ts`. */
  id: string;
  /**
   * The job's source file, relative to the repository root: the id names it
   * (`polls.close`: `functions/polls/jobs/close.ts`; {@link jobFileOf}). It exports
   * `handler` (the SQS consumer, answering `{ batchItemFailures }`) and, when
   * `schedule` is set, `produce` (finds due items and sends one message each
   * to the queue named by env `QUEUE_URL`).
   */
  file: string;
  /** EventBridge schedule expression for the producer, e.g. `rate(1 minute)`. Local mode runs every producer each second. */
  schedule?: `rate(${string})` | `cron(${string})`;
  /** Messages per consumer invocation (1..10 for a standard queue without a batching window). */
  batchSize: number;
  /** At most this many consumers at once (the SQS event source's maximum concurrency, 2 or more); unset, as many as Lambda gives. */
  maxConcurrency?: number;
  /** One line saying what the job does (logs, local mode's listing). Optional. */
  description?: string;
  /** Its functions call the platform: its role may read the bot token (infra/access.ts). */
  platform?: boolean;
  /** Its functions read the operator's named secrets (`functionSecretArns`: the socials sources' credentials). */
  namedSecrets?: boolean;
}

/** A job as its module declares it: its source file is the one its id names. */
export type JobRow = Omit<Job, 'file'>;

/** The source file a job's id names: `module.name` is `functions/<module>/jobs/<name>.ts`. */
export function jobFileOf(id: string): string {
  const dot = id.indexOf('.');
  return `functions/${id.slice(0, dot)}/jobs/${id.slice(dot + 1)}.ts`;
}

/** The name of the shared queue of the jobs that need nothing apart. */
export const SHARED_QUEUE = 'shared';
/** The name of the queue of the jobs reading the operator's named secrets. */
export const SOURCES_QUEUE = 'sources';

/**
 * The queue a job's messages go to (CDK builds one queue, dead-letter queue
 * and consumer per name; `functions/job-queue.ts` dispatches by the job a
 * message names). Lambda's pollers cost about $0.26 a month a queue
 * whatever it carries, so jobs share queues, apart only where sharing would
 * change what they may do or how fast they run: a job with a concurrency
 * cap has its queue alone (the cap is the queue's), and the jobs reading
 * the operator's named secrets share one, so no other job's role reads them.
 */
export function jobQueueOf(job: Pick<Job, 'id' | 'maxConcurrency' | 'namedSecrets'>): string {
  if (job.maxConcurrency !== undefined) return job.id;
  return job.namedSecrets ? SOURCES_QUEUE : SHARED_QUEUE;
}

import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type ConsumerOptions, type DueHandler, type ProduceOptions, type ProduceResult, type RunContext, scheduler } from './scheduler.js';

/**
 * The durable scheduler (behaviour §9): what modules and job files
 * import. See `scheduler.ts` for the design.
 */
export {
  scheduler,
  createScheduler,
  runWillFollow,
  runDeadline,
  RunDeadlineError,
  type DueWork,
  type DueHandler,
  type RunContext,
  type HandlerResult,
  type Scheduler,
  type ProduceOptions,
  type ProduceResult,
} from './scheduler.js';
export { cancel, cancelAll, dueKeysOf, requestLater, type WorkRef } from './table-only.js';
export { setJobSender, jobSender, queueUrlEnvName, type JobMessageSender } from './sender.js';
export { onWorkDone, type WorkDone } from './observe.js';
export { type SchedulerTimings, DEFAULT_TIMINGS } from './config.js';
export type { DueItem } from './store.js';
export { DueEntity } from './store.js';

/** What a job file exports: the SQS consumer and the scheduled producer (see `infra/jobs.ts`). */
export interface ScheduledJob {
  /** The SQS consumer Lambda: handles each message, reports partial batch failures. */
  handler: (event: SQSEvent, context?: RunContext) => Promise<SQSBatchResponse>;
  /** The producer Lambda (EventBridge schedule): sends what falls due soon. */
  produce: (event?: unknown) => Promise<ProduceResult>;
}

/**
 * A producer run's options from its event: the shard its schedule gives it
 * (`producerInputs`), and `recover` from local mode's first run, which
 * re-sends leased items at once (its in-process queue lost them). Anything
 * else, such as EventBridge's own scheduled event, means a run of every shard.
 */
function produceOptions(event: unknown): ProduceOptions {
  const { recover, shard } = (event && typeof event === 'object' ? event : {}) as { recover?: unknown; shard?: unknown };
  return { recover: recover === true, shard: Number.isInteger(shard) && (shard as number) >= 0 ? (shard as number) : undefined };
}

/** A job file in one line: `export const { handler, produce } = scheduledJob(Jobs.close, closeDue)`. */
export function scheduledJob(job: string, handle: DueHandler, options: ConsumerOptions = {}): ScheduledJob {
  const consume = scheduler.consumer(job, handle, options);
  return {
    handler: (event, context) => consume(event, context),
    produce: (event) => scheduler.produce(job, produceOptions(event)),
  };
}

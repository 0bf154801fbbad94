import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type ConsumerOptions, type DueHandler, type ProduceResult, scheduler } from './scheduler.js';

/**
 * The durable scheduler (contract section 9): what modules and job files
 * import. See `scheduler.ts` for the design.
 */
export { scheduler, createScheduler, runWillFollow, type DueWork, type DueHandler, type HandlerResult, type Scheduler, type ProduceResult } from './scheduler.js';
export { cancel, cancelAll, dueKeysOf, requestLater, type WorkRef } from './table-only.js';
export { setJobSender, jobSender, queueUrlEnvName, type JobMessageSender } from './sender.js';
export { onWorkDone, type WorkDone } from './observe.js';
export { type SchedulerTimings, DEFAULT_TIMINGS } from './config.js';
export type { DueItem } from './store.js';

/** What a job file exports: the SQS consumer and the scheduled producer (see `infra/jobs.ts`). */
export interface ScheduledJob {
  /** The SQS consumer Lambda: handles each message, reports partial batch failures. */
  handler: (event: SQSEvent) => Promise<SQSBatchResponse>;
  /** The producer Lambda (EventBridge schedule): sends what falls due soon. */
  produce: (event?: unknown) => Promise<ProduceResult>;
}

/** Local mode asks its first producer run to re-send leased items at once: its in-process queue lost them. */
const wantsRecovery = (event: unknown) => Boolean(event && typeof event === 'object' && (event as { recover?: unknown }).recover === true);

/** A job file in one line: `export const { handler, produce } = scheduledJob('polls.close', closeDuePoll)`. */
export function scheduledJob(job: string, handle: DueHandler, options: ConsumerOptions = {}): ScheduledJob {
  const consume = scheduler.consumer(job, handle, options);
  return {
    handler: (event) => consume(event),
    produce: (event) => scheduler.produce(job, { recover: wantsRecovery(event) }),
  };
}

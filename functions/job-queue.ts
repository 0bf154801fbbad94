import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { errorField, log } from '#shared/observe/log.js';
import type { RunContext, ScheduledJob } from '#shared/scheduler/index.js';
import { scheduler } from '#shared/scheduler/index.js';
import { jobFileOf } from '#shared/scheduler/job.js';
import { producerInputs } from '#shared/scheduler/keys.js';
import { jobs } from './jobs.js';

/**
 * The one deployed entry of every job queue (behaviour §9; issue 45 part 3):
 * several jobs share a queue (`jobQueueOf`), so its consumer hands each
 * message to the handler of the job the message names, and one producer
 * run a minute looks for the due work of every job. A job's code is
 * imported when its first message arrives: the bundle holds every job's
 * code, but a cold start evaluates only the modules of the jobs it runs.
 * Local mode runs each job's own file (infra/local/jobs/); the handlers are
 * the same.
 */

/**
 * Each job's file (`jobFileOf`: the job's ID names it), imported on its first
 * message. Written out because esbuild bundles only literal import paths; a
 * test holds it to the job table, so a job's ID is still written once, in its
 * module's `jobs.ts`.
 */
export const JOB_FILES: Readonly<Record<string, () => Promise<Pick<ScheduledJob, 'handler'>>>> = {
  'functions/polls/jobs/close.ts': () => import('./polls/jobs/close.js'),
  'functions/polls/jobs/delete.ts': () => import('./polls/jobs/delete.js'),
  'functions/polls/jobs/voter-sweep.ts': () => import('./polls/jobs/voter-sweep.js'),
  'functions/polls/jobs/refresh.ts': () => import('./polls/jobs/refresh.js'),
  'functions/giveaways/jobs/end.ts': () => import('./giveaways/jobs/end.js'),
  'functions/giveaways/jobs/delete.ts': () => import('./giveaways/jobs/delete.js'),
  'functions/giveaways/jobs/refresh.ts': () => import('./giveaways/jobs/refresh.js'),
  'functions/socials/jobs/poll.ts': () => import('./socials/jobs/poll.js'),
  'functions/socials/jobs/streams.ts': () => import('./socials/jobs/streams.js'),
  'functions/socials/jobs/announce.ts': () => import('./socials/jobs/announce.js'),
  'functions/serverstats/jobs/counters.ts': () => import('./serverstats/jobs/counters.js'),
  'functions/serverstats/jobs/purge.ts': () => import('./serverstats/jobs/purge.js'),
  'functions/serverstats/jobs/file.ts': () => import('./serverstats/jobs/file.js'),
  'functions/welcoming/jobs/timedrole-grant.ts': () => import('./welcoming/jobs/timedrole-grant.js'),
  'functions/welcoming/jobs/timedrole-catchup.ts': () => import('./welcoming/jobs/timedrole-catchup.js'),
  'functions/welcoming/jobs/grant-sweep.ts': () => import('./welcoming/jobs/grant-sweep.js'),
  'functions/invite-tracker/jobs/use-sweep.ts': () => import('./invite-tracker/jobs/use-sweep.js'),
  'functions/verifier/jobs/entry-sweep.ts': () => import('./verifier/jobs/entry-sweep.js'),
  'functions/reactionroles/jobs/claim-sweep.ts': () => import('./reactionroles/jobs/claim-sweep.js'),
};

/** The job a message names (the scheduler's body, `{ job, key, due_at }`), or null for one that is not due work. */
function jobOfMessage(body: string): string | null {
  try {
    const job = (JSON.parse(body) as { job?: unknown }).job;
    return typeof job === 'string' ? job : null;
  } catch {
    return null;
  }
}

/**
 * The consumer of a shared queue: the batch's messages grouped by job, each
 * group given to its job's handler at once (each run has the function's
 * whole time, as in a queue of its own), the partial batch failures merged.
 * A message naming no known job fails, so it ends in the dead-letter queue
 * after its last delivery, as a job's own consumer fails a message not its own.
 */
export async function handler(event: SQSEvent, context?: RunContext): Promise<SQSBatchResponse> {
  const byJob = new Map<string, SQSRecord[]>();
  const failed: SQSRecord[] = [];
  for (const record of event.Records) {
    const job = jobOfMessage(record.body);
    if (job === null || !Object.hasOwn(JOB_FILES, jobFileOf(job))) {
      log('error', 'scheduler: message names no job of this queue', { messageId: record.messageId });
      failed.push(record);
      continue;
    }
    byJob.set(job, [...(byJob.get(job) ?? []), record]);
  }
  const answers = await Promise.all(
    [...byJob].map(async ([job, records]) => {
      try {
        const file = await JOB_FILES[jobFileOf(job)]!();
        return await file.handler({ Records: records }, context);
      } catch (error) {
        // A job whose code failed to load (or whose consumer threw) fails its own messages only; the other jobs' stand.
        log('error', 'scheduler: job consumer failure', { job, error: errorField(error) });
        return { batchItemFailures: records.map((record) => ({ itemIdentifier: record.messageId })) };
      }
    }),
  );
  return {
    batchItemFailures: [...failed.map((record) => ({ itemIdentifier: record.messageId })), ...answers.flatMap((answer) => answer.batchItemFailures)],
  };
}

/**
 * The scheduled producer of every job whose schedule fired (the rule's
 * input names them, `{ jobs }`; without it, every scheduled job): each job's
 * shards read at once. The producer is the scheduler's own, so no job's code
 * is loaded. A job whose run fails is logged, the others go on, and the
 * invocation fails at the end.
 */
export async function produce(event?: unknown): Promise<{ dispatched: number; parked: number; failed: string[] }> {
  const named = (event && typeof event === 'object' ? (event as { jobs?: unknown }).jobs : undefined) as unknown;
  const wanted = Array.isArray(named) ? new Set(named.filter((j): j is string => typeof j === 'string')) : null;
  const due = jobs.filter((job) => job.schedule && (wanted === null || wanted.has(job.id)));
  const total = { dispatched: 0, parked: 0, failed: [] as string[] };
  await Promise.all(
    due.flatMap((job) =>
      producerInputs(job.id).map(async (input) => {
        try {
          const result = await scheduler.produce(job.id, input);
          total.dispatched += result.dispatched;
          total.parked += result.parked;
        } catch (error) {
          log('error', 'scheduler: producer run failed', { job: job.id, shard: input.shard ?? null, error: errorField(error) });
          total.failed.push(job.id);
        }
      }),
    ),
  );
  // A failed run fails the invocation (the Lambda errors alarm; EventBridge retries it, and sending twice is harmless: each item is marked before it is sent).
  if (total.failed.length > 0) throw new Error(`producer runs failed: ${[...new Set(total.failed)].join(', ')}`);
  return total;
}

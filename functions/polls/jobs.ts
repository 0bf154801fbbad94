/**
 * The module's scheduled work: each job's ID, written once here, and its
 * row (behaviour §9), which `functions/jobs.ts` gathers for CDK, local mode
 * and the bench. The handlers are the files under `jobs/`.
 */
import type { JobRow } from '#shared/scheduler/job.js';
import { spreadingJob } from '#shared/scheduler/keys.js';

/** The scheduler jobs that go with a poll. */
export const PollJobs = { close: 'polls.close', delete: 'polls.delete', refresh: spreadingJob('polls.refresh') } as const;
/** The removal of a deleted poll's voters: not one of {@link PollJobs}, which go with the poll. */
export const VOTER_SWEEP_JOB = 'polls.voter-sweep';

/** The module's jobs. */
export const jobs: JobRow[] = [
  {
    id: PollJobs.close,
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: 'Closes polls at their end time',
    platform: true,
  },
  {
    id: PollJobs.delete,
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: "Deletes closed polls' data at delete_at",
    platform: true,
  },
  {
    id: VOTER_SWEEP_JOB,
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: "Removes a deleted poll's voters behind the delete, in bounded runs that resume",
    platform: true,
  },
  {
    id: PollJobs.refresh,
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: 'Re-renders poll messages after votes, batched per poll',
    platform: true,
  },
];

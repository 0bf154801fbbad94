/**
 * The module's scheduled work: each job's ID, written once here, and its
 * row (behaviour §9), which `functions/jobs.ts` gathers for CDK, local mode
 * and the bench. The handlers are the files under `jobs/`.
 */
import type { JobRow } from '#shared/scheduler/job.js';

export const USE_SWEEP_JOB = 'invite-tracker.use-sweep';

/** The module's jobs. */
export const jobs: JobRow[] = [
  {
    id: USE_SWEEP_JOB,
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: 'Removes the invite uses stored before a settings delete, behind it, in bounded runs that resume',
  },
];

/**
 * The module's scheduled work: each job's ID, written once here, and its
 * row (behaviour §9), which `functions/jobs.ts` gathers for CDK, local mode
 * and the bench. The handlers are the files under `jobs/`.
 */
import type { JobRow } from '#shared/scheduler/job.js';

export const CLAIM_SWEEP_JOB = 'reactionroles.claim-sweep';

/** The module's jobs. */
export const jobs: JobRow[] = [
  {
    id: CLAIM_SWEEP_JOB,
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: 'Removes the claims of deleted panels behind the module delete, in bounded runs that resume',
  },
];

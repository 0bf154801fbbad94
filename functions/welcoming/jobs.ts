/**
 * The module's scheduled work: each job's ID, written once here, and its
 * row (behaviour §9), which `functions/jobs.ts` gathers for CDK, local mode
 * and the bench. The handlers are the files under `jobs/`.
 */
import type { JobRow } from '#shared/scheduler/job.js';
import { spreadingJob } from '#shared/scheduler/keys.js';

/** The grant sweep's job, a constant so the sweep's declaration reads no property (grants.ts). */
export const GRANT_SWEEP_JOB = 'welcoming.grant-sweep';

export const WelcomingJobs = {
  grant: spreadingJob('welcoming.timedrole-grant'),
  catchUp: 'welcoming.timedrole-catchup',
  sweep: GRANT_SWEEP_JOB,
} as const;

/** The module's jobs. */
export const jobs: JobRow[] = [
  {
    id: WelcomingJobs.grant,
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: 'Grants timed roles at join time + add_after, once',
    platform: true,
  },
  {
    id: WelcomingJobs.catchUp,
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: 'Hourly per guild: timed roles for members the join checks missed',
    platform: true,
  },
  {
    id: WelcomingJobs.sweep,
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: 'Removes the grants of deleted timed roles behind the delete, in bounded runs that resume',
    platform: true,
  },
];

/**
 * The module's scheduled work: each job's ID, written once here, and its
 * row (behaviour §9), which `functions/jobs.ts` gathers for CDK, local mode
 * and the bench. The handlers are the files under `jobs/`.
 */
import type { JobRow } from '#shared/scheduler/job.js';
import { spreadingJob } from '#shared/scheduler/keys.js';

export const REFRESH_JOB = spreadingJob('serverstats.counters');
export const PURGE_JOB = 'serverstats.purge';
export const FILE_JOB = 'serverstats.file';

/** The module's jobs. */
export const jobs: JobRow[] = [
  {
    id: REFRESH_JOB,
    schedule: 'rate(1 minute)',
    batchSize: 5,
    description: "Refreshes a guild's counters within the platform's rename limit",
    platform: true,
  },
  {
    id: PURGE_JOB,
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: "Removes a deleted guild's statistic records behind the settings delete, in bounded runs that resume",
  },
  {
    id: FILE_JOB,
    schedule: 'rate(1 minute)',
    batchSize: 5,
    description: "Files a guild's batched statistics of a closed hour again by member and by channel, so a filtered fetch reads only its own",
  },
];

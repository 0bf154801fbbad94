/**
 * The module's scheduled work: each job's ID, written once here, and its
 * row (behaviour §9), which `functions/jobs.ts` gathers for CDK, local mode
 * and the bench. The handlers are the files under `jobs/`.
 */
import type { JobRow } from '#shared/scheduler/job.js';
import { spreadingJob } from '#shared/scheduler/keys.js';

export const GiveawayJobs = { end: 'giveaways.end', delete: 'giveaways.delete', refresh: spreadingJob('giveaways.refresh') } as const;

/** The module's jobs. */
export const jobs: JobRow[] = [
  {
    id: GiveawayJobs.end,
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: 'Ends giveaways at their end time, once: winners drawn, message edited, one announcement',
    platform: true,
  },
  {
    id: GiveawayJobs.delete,
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: "Deletes ended giveaways' data at delete_at",
    platform: true,
  },
  {
    id: GiveawayJobs.refresh,
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: 'Shows entrant counts on giveaway messages, batched per giveaway',
    platform: true,
  },
];

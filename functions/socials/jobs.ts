/**
 * The module's scheduled work: each job's ID, written once here, and its
 * row (behaviour §9), which `functions/jobs.ts` gathers for CDK, local mode
 * and the bench. The handlers are the files under `jobs/`.
 */
import type { JobRow } from '#shared/scheduler/job.js';
import { spreadingJob } from '#shared/scheduler/keys.js';

export const POLL_JOB = spreadingJob('socials.poll');
export const STREAM_JOB = 'socials.streams';
export const ANNOUNCE_JOB = spreadingJob('socials.announce');

/** The module's jobs. */
export const jobs: JobRow[] = [
  {
    id: POLL_JOB,
    schedule: 'rate(1 minute)',
    batchSize: 5,
    description: 'Polls a watched forum, feed or video channel once per interval and announces new items',
    namedSecrets: true,
  },
  {
    id: STREAM_JOB,
    schedule: 'rate(1 minute)',
    batchSize: 4,
    description: 'Polls one shard of the watched stream accounts, 100 a request, every live page',
    namedSecrets: true,
  },
  {
    id: ANNOUNCE_JOB,
    schedule: 'rate(1 minute)',
    batchSize: 4,
    maxConcurrency: 2,
    description: 'Posts a new item of a source to up to 25 of the channels watching it, once each, paced (SOCIALS_ANNOUNCE_RATE a consumer)',
    platform: true,
  },
];

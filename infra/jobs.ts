/**
 * Scheduled work (behaviour §9) as plain data, like the route tables.
 * Each job gets an SQS queue with a dead-letter queue and a consumer Lambda;
 * a job with a `schedule` also gets a producer Lambda fired by EventBridge.
 * Local mode runs the same table in process (`infra/local/jobs/`).
 */
export interface Job {
  /** `module.job`, unique; CDK construct IDs are made from it. */
  id: string;
  /**
   * The job's source file, relative to the repository root. It exports
   * `handler` (the SQS consumer, answering `{ batchItemFailures }`) and, when
   * `schedule` is set, `produce` (finds due items and sends one message each
   * to the queue named by env `QUEUE_URL`).
   */
  file: string;
  /** EventBridge schedule expression for the producer, e.g. `rate(1 minute)`. Local mode runs every producer each second. */
  schedule?: `rate(${string})` | `cron(${string})`;
  /** Messages per consumer invocation (1..10 for a standard queue without a batching window). */
  batchSize: number;
  /** At most this many consumers at once (the SQS event source's maximum concurrency, 2 or more); unset, as many as Lambda gives. */
  maxConcurrency?: number;
  /** One line saying what the job does (logs, local mode's listing). Optional. */
  description?: string;
  /** Its functions call the platform: its role may read the bot token (infra/access.ts). */
  platform?: boolean;
  /** Its functions read the operator's named secrets (`functionSecretArns`: the socials sources' credentials). */
  namedSecrets?: boolean;
}

/**
 * Every job of the service. Each job with due work keeps it in the table's
 * due index (`shared/scheduler`); its producer runs every minute and sends
 * what falls due within the next two, delayed to the due time.
 */
export const jobs: Job[] = [
  {
    id: 'polls.close',
    file: 'functions/jobs/polls-close.ts',
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: 'Closes polls at their end time',
    platform: true,
  },
  {
    id: 'polls.delete',
    file: 'functions/jobs/polls-delete.ts',
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: "Deletes closed polls' data at delete_at",
    platform: true,
  },
  {
    id: 'polls.voter-sweep',
    file: 'functions/jobs/polls-voter-sweep.ts',
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: "Removes a deleted poll's voters behind the delete, in bounded runs that resume",
    platform: true,
  },
  {
    id: 'polls.refresh',
    file: 'functions/jobs/polls-refresh.ts',
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: 'Re-renders poll messages after votes, batched per poll',
    platform: true,
  },
  {
    id: 'giveaways.end',
    file: 'functions/jobs/giveaways-end.ts',
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: 'Ends giveaways at their end time, once: winners drawn, message edited, one announcement',
    platform: true,
  },
  {
    id: 'giveaways.delete',
    file: 'functions/jobs/giveaways-delete.ts',
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: "Deletes ended giveaways' data at delete_at",
    platform: true,
  },
  {
    id: 'giveaways.refresh',
    file: 'functions/jobs/giveaways-refresh.ts',
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: 'Shows entrant counts on giveaway messages, batched per giveaway',
    platform: true,
  },
  {
    id: 'socials.poll',
    file: 'functions/jobs/socials-poll.ts',
    schedule: 'rate(1 minute)',
    batchSize: 5,
    description: 'Polls a watched forum, feed or video channel once per interval and announces new items',
    namedSecrets: true,
  },
  {
    id: 'socials.streams',
    file: 'functions/jobs/socials-streams.ts',
    schedule: 'rate(1 minute)',
    batchSize: 4,
    description: 'Polls one shard of the watched stream accounts, 100 a request, every live page',
    namedSecrets: true,
  },
  {
    id: 'socials.announce',
    file: 'functions/jobs/socials-announce.ts',
    schedule: 'rate(1 minute)',
    batchSize: 4,
    maxConcurrency: 2,
    description: 'Posts a new item of a source to up to 25 of the channels watching it, once each, paced (SOCIALS_ANNOUNCE_RATE a consumer)',
    platform: true,
  },
  {
    id: 'serverstats.counters',
    file: 'functions/jobs/serverstats-counters.ts',
    schedule: 'rate(1 minute)',
    batchSize: 5,
    description: "Refreshes a guild's counters within the platform's rename limit",
    platform: true,
  },
  {
    id: 'serverstats.purge',
    file: 'functions/jobs/serverstats-purge.ts',
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: "Removes a deleted guild's statistic records behind the settings delete, in bounded runs that resume",
  },
  {
    id: 'welcoming.timedrole-grant',
    file: 'functions/jobs/welcoming-timedrole-grant.ts',
    schedule: 'rate(1 minute)',
    batchSize: 10,
    description: 'Grants timed roles at join time + add_after, once',
    platform: true,
  },
  {
    id: 'welcoming.timedrole-catchup',
    file: 'functions/jobs/welcoming-timedrole-catchup.ts',
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: 'Hourly per guild: timed roles for members the join checks missed',
    platform: true,
  },
  {
    id: 'welcoming.grant-sweep',
    file: 'functions/jobs/welcoming-grant-sweep.ts',
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: 'Removes the grants of deleted timed roles behind the delete, in bounded runs that resume',
    platform: true,
  },
  {
    id: 'invite-tracker.use-sweep',
    file: 'functions/jobs/invite-tracker-use-sweep.ts',
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: 'Removes the invite uses stored before a settings delete, behind it, in bounded runs that resume',
  },
  {
    id: 'verifier.entry-sweep',
    file: 'functions/jobs/verifier-entry-sweep.ts',
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: 'Removes the verification entries stored before a settings delete, behind it, in bounded runs that resume',
  },
  {
    id: 'reactionroles.claim-sweep',
    file: 'functions/jobs/reactionroles-claim-sweep.ts',
    schedule: 'rate(1 minute)',
    batchSize: 1,
    description: 'Removes the claims of deleted panels behind the module delete, in bounded runs that resume',
  },
];

/** The environment variable holding a job queue's URL, e.g. `polls.close` -> `QUEUE_URL_POLLS_CLOSE`. */
export { queueUrlEnvName } from '#shared/scheduler/queue-env.js';

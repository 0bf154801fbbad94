/** The job row's shape (behaviour §9): shared, so each module declares its rows beside its handlers. */
export type { Job } from '#shared/scheduler/job.js';
/** Every job of the service, gathered from the modules (`functions/jobs.ts`). */
export { jobs } from '#functions/jobs.js';

/** The environment variable holding a job queue's URL, e.g. `polls.close` -> `QUEUE_URL_POLLS_CLOSE`. */
export { queueUrlEnvName } from '#shared/scheduler/queue-env.js';

/** The environment variable holding a job queue's URL, e.g. `module.job` -> `QUEUE_URL_MODULE_JOB` (CDK sets it, the sender reads it). */
export function queueUrlEnvName(jobId: string): string {
  return `QUEUE_URL_${jobId.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}`;
}

/** The environment variable holding a job's dead-letter queue URL, e.g. `DLQ_URL_MODULE_JOB` (set for the parked-work routes only). */
export function deadLetterUrlEnvName(jobId: string): string {
  return `DLQ_URL_${jobId.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}`;
}

import { PURGE_JOB, statsRemoval } from '../purge.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/**
 * Removes a deleted guild's statistic records behind the settings delete
 * (key: the guild ID), in runs that each stop well inside the function's
 * time limit and ask for the next before they end.
 */
export const { handler, produce } = scheduledJob(PURGE_JOB, async ({ key, remainingMs }) => {
  const run = await statsRemoval.run(key, statsRemoval.budget(remainingMs()));
  return run.done ? undefined : { next: Date.now() };
});

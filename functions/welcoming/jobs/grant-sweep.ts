import { grantSweep } from '../grants.js';
import { WelcomingJobs } from '../keys.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/**
 * Removes the grants of deleted timed roles behind the delete's answer (key:
 * the guild ID), in runs that each stop well inside the function's time
 * limit and ask for the next before they end.
 */
export const { handler, produce } = scheduledJob(WelcomingJobs.sweep, async ({ key, remainingMs }) => {
  const run = await grantSweep.run(key, grantSweep.budget(remainingMs()));
  return run.done ? undefined : { next: Date.now() };
});

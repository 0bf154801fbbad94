import { CLAIM_SWEEP_JOB, claimSweep } from '../cleanup.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/**
 * Removes the claims of deleted panels behind the module delete's answer
 * (key: the guild ID), in runs that each stop well inside the function's
 * time limit and ask for the next before they end.
 */
export const { handler, produce } = scheduledJob(CLAIM_SWEEP_JOB, async ({ key, remainingMs }) => {
  const run = await claimSweep.run(key, claimSweep.budget(remainingMs()));
  return run.done ? undefined : { next: Date.now() };
});

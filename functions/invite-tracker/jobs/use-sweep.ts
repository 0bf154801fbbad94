import { USE_SWEEP_JOB, useSweep } from '../sweep.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/**
 * Removes the invite uses stored before a settings delete, behind its answer
 * (key: the guild ID), in runs that each stop well inside the function's
 * time limit and ask for the next before they end.
 */
export const { handler, produce } = scheduledJob(USE_SWEEP_JOB, async ({ key, remainingMs }) => {
  const run = await useSweep.run(key, useSweep.budget(remainingMs()));
  return run.done ? undefined : { next: Date.now() };
});

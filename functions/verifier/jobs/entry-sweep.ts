import { ENTRY_SWEEP_JOB, entrySweep } from '../sweep.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/**
 * Removes the verification entries stored before a settings delete, behind
 * its answer (key: the guild ID), in runs that each stop well inside the
 * function's time limit and ask for the next before they end.
 */
export const { handler, produce } = scheduledJob(ENTRY_SWEEP_JOB, async ({ key, remainingMs }) => {
  const run = await entrySweep.run(key, entrySweep.budget(remainingMs()));
  return run.done ? undefined : { next: Date.now() };
});

import { voterSweep } from '../lifecycle.js';
import { VOTER_SWEEP_JOB } from '../keys.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/**
 * Removes a deleted poll's voters behind the delete's answer (key:
 * `<guild>#<poll_id>`), in runs that each stop well inside the function's
 * time limit and ask for the next before they end.
 */
export const { handler, produce } = scheduledJob(VOTER_SWEEP_JOB, async ({ key, remainingMs }) => {
  const run = await voterSweep.run(key, voterSweep.budget(remainingMs()));
  return run.done ? undefined : { next: Date.now() };
});

import { catchUpBudget, hourlyCatchUp } from '../grants.js';
import { WelcomingJobs } from '../keys.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/**
 * Every hour per guild with timed roles: owes timed roles to members the join checks missed (downtime, roles made later).
 * A large guild's pass goes on over several runs, each stopping well inside the function's time limit.
 */
export const { handler, produce } = scheduledJob(WelcomingJobs.catchUp, async ({ key, remainingMs }) => {
  const next = await hourlyCatchUp(key, catchUpBudget(remainingMs()));
  return next === null ? undefined : { next };
});

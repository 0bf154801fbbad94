import { hourlyCatchUp } from '../welcoming/grants.js';
import { WelcomingJobs } from '../welcoming/keys.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Every hour per guild with timed roles: owes timed roles to members the join checks missed (downtime, roles made later). */
export const { handler, produce } = scheduledJob(WelcomingJobs.catchUp, async ({ key }) => {
  const next = await hourlyCatchUp(key);
  return next === null ? undefined : { next };
});

import { grantDue } from '../grants.js';
import { WelcomingJobs, parseGrantDueKey } from '../keys.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Grants a timed role to a member at join time + add_after, once (see functions/welcoming/grants.ts). */
export const { handler, produce } = scheduledJob(WelcomingJobs.grant, async ({ key }) => {
  const due = parseGrantDueKey(key);
  if (due) await grantDue(due.guildId, due.memberId, due.timedRoleId);
});

import { refreshGuild } from '../counters.js';
import { REFRESH_JOB } from '../counters.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/**
 * Refreshes one guild's counters (key: the guild ID), every
 * COUNTERS_REFRESH_SECONDS and sooner when a deferred rename's budget frees
 * up; a guild with no counters left is not looked at again.
 */
export const { handler, produce } = scheduledJob(REFRESH_JOB, async ({ key }) => {
  const outcome = await refreshGuild(key);
  return outcome.next === null ? undefined : { next: outcome.next };
});

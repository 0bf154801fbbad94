import { GiveawayJobs, parseDueKey, endGiveaway } from '../lifecycle.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Ends a giveaway at its end time, exactly once: entries closed, winners drawn from the entrants a piece a run, message edited, one announcement. */
export const { handler, produce } = scheduledJob(GiveawayJobs.end, async ({ key }) => {
  const due = parseDueKey(key);
  return due ? endGiveaway(due.guildId, due.entryId) : undefined;
});

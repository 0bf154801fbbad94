import { GiveawayJobs, parseDueKey, endGiveaway } from '../giveaways/lifecycle.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Ends a giveaway at its end time, exactly once: entries closed, winners drawn, message edited, one announcement. */
export const { handler, produce } = scheduledJob(GiveawayJobs.end, async ({ key }) => {
  const due = parseDueKey(key);
  if (due) await endGiveaway(due.guildId, due.entryId);
});

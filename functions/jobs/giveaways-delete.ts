import { GiveawayJobs, parseDueKey, deleteEndedGiveaway } from '../giveaways/lifecycle.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Deletes an ended giveaway's data at delete_at (and its message when the settings say so). */
export const { handler, produce } = scheduledJob(GiveawayJobs.delete, async ({ key }) => {
  const due = parseDueKey(key);
  if (due) await deleteEndedGiveaway(due.guildId, due.entryId);
});

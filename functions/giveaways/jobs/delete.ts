import { GiveawayJobs, parseDueKey, deleteEndedGiveaway } from '../lifecycle.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Deletes an ended giveaway's data at delete_at (and its message when the settings say so), then its entrants a piece a run; a giveaway deleted before its time, its entrants. */
export const { handler, produce } = scheduledJob(GiveawayJobs.delete, async ({ key }) => {
  const due = parseDueKey(key);
  return due ? deleteEndedGiveaway(due.guildId, due.entryId) : undefined;
});

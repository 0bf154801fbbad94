import { GiveawayJobs, REFRESH_DELAY_MS, parseDueKey, showGiveaway } from '../lifecycle.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Shows a giveaway's entrant count on its message: one edit however many enters and leaves came in. */
export const { handler, produce } = scheduledJob(
  GiveawayJobs.refresh,
  async ({ key }) => {
    const due = parseDueKey(key);
    if (due) await showGiveaway(due.guildId, due.entryId);
  },
  { minSpacingMs: REFRESH_DELAY_MS },
);

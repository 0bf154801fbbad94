import { deleteDuePoll } from '../lifecycle.js';
import { PollJobs, parseDueKey } from '../keys.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Deletes each closed poll's data at `delete_at` (and its message when the settings say so). */
export const { handler, produce } = scheduledJob(PollJobs.delete, async ({ key }) => {
  const poll = parseDueKey(key);
  if (poll) await deleteDuePoll(poll.guildId, poll.pollId);
});

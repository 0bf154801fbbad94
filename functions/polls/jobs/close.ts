import { closeDuePoll } from '../lifecycle.js';
import { PollJobs, parseDueKey } from '../keys.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Closes each poll at its end time: results on its message, `delete_at` set. */
export const { handler, produce } = scheduledJob(PollJobs.close, async ({ key }) => {
  const poll = parseDueKey(key);
  if (poll) await closeDuePoll(poll.guildId, poll.pollId);
});

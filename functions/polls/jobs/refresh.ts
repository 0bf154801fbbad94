import { refreshPollMessage } from '../lifecycle.js';
import { REFRESH_DELAY_MS } from '../refresh-request.js';
import { PollJobs, parseDueKey } from '../keys.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/**
 * Re-renders a poll's message after votes: one run per poll however many
 * votes came in, the next at least REFRESH_DELAY_MS later and further apart
 * the faster votes come (`refreshSpacing`), so a burst of votes costs a few
 * renders, stays within the platform's rate limits, and the last state wins.
 */
export const { handler, produce } = scheduledJob(
  PollJobs.refresh,
  async ({ key }) => {
    const poll = parseDueKey(key);
    if (poll) return refreshPollMessage(poll.guildId, poll.pollId);
  },
  { minSpacingMs: REFRESH_DELAY_MS },
);

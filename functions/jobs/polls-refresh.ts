import { REFRESH_DELAY_MS } from '../polls/lifecycle.js';
import { syncPollMessage } from '../polls/message.js';
import { PollJobs, parseDueKey } from '../polls/keys.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/**
 * Re-renders a poll's message after votes: one run per poll however many
 * votes came in, the next at least REFRESH_DELAY_MS later, so a burst of
 * votes stays within the platform's rate limits and the last state wins.
 */
export const { handler, produce } = scheduledJob(
  PollJobs.refresh,
  async ({ key }) => {
    const poll = parseDueKey(key);
    if (!poll) return;
    // Another writer holds the message (an edit, a close): try again shortly.
    if ((await syncPollMessage(poll.guildId, poll.pollId)).outcome === 'busy') return { next: Date.now() + 1000 };
  },
  { minSpacingMs: REFRESH_DELAY_MS },
);

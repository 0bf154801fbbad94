/**
 * Every key the polls module writes, spelled once.
 *
 * - The poll: guild partition `G#<guild>`, sort key `POLL#<poll_id>`.
 * - Its message: a pointer item `POLLMSG#<channel>#<message>` in the guild
 *   partition holding `poll_id`, written with a condition, so a vote or a
 *   deleted message finds its poll by a strongly consistent read of a key
 *   the caller can compute (an index would be eventually consistent).
 * - Voters: one item per member and poll, in the poll's own partition
 *   `POLLVOTES#<guild>#<poll_id>`, sort key `VOTER#<member>`, so a burst of
 *   votes spreads over items and counting is one query.
 * - Due work (close, delete, message refresh) in the shared scheduler, keyed
 *   `<guild>#<poll_id>`.
 */
import { guildKey } from '#shared/modules/store.js';

export const POLL_ENTITY = 'poll';
export const VOTER_ENTITY = 'poll_voter';

export const POLL_PREFIX = 'POLL#';
export const pollItemKey = (guildId: string, pollId: string) => ({ pk: guildKey(guildId), sk: `${POLL_PREFIX}${pollId}` });

export const votersPartition = (guildId: string, pollId: string) => `POLLVOTES#${guildId}#${pollId}`;
export const VOTER_PREFIX = 'VOTER#';
export const voterItemKey = (guildId: string, pollId: string, memberId: string) => ({ pk: votersPartition(guildId, pollId), sk: `${VOTER_PREFIX}${memberId}` });

export const POLL_MESSAGE_ENTITY = 'poll_message';
/** The pointer from a poll's message to the poll. */
export const pollMessageKey = (guildId: string, channelId: string, messageId: string) => ({
  pk: guildKey(guildId),
  sk: `POLLMSG#${channelId}#${messageId}`,
});

/** The scheduler jobs of the module (see `infra/jobs.ts`). */
export const PollJobs = { close: 'polls.close', delete: 'polls.delete', refresh: 'polls.refresh' } as const;

/** A poll's key in the scheduler. Guild IDs are digits, so the first `#` splits it. */
export const dueKeyOf = (guildId: string, pollId: string) => `${guildId}#${pollId}`;

export function parseDueKey(key: string): { guildId: string; pollId: string } | null {
  const at = key.indexOf('#');
  if (at <= 0) return null;
  return { guildId: key.slice(0, at), pollId: key.slice(at + 1) };
}

/**
 * What a poll's record and message show of its votes (behaviour §15): the
 * counts the poll item keeps, and the voter IDs only while the poll has at
 * most LISTED_VOTES votes, read by one bounded Query; never every voter
 * item of a large poll. A poll stored before counts were kept is counted
 * once (`settleCounts`).
 */
import { LISTED_VOTES, type Poll, type PollCounts, type Tally, countedTally, tallyOf } from './model.js';
import { settleCounts, votersUpTo } from './store.js';

/** The poll's counts as its item keeps them (counted first for a poll stored before; null when the poll is gone). */
export async function countsNow(poll: Poll): Promise<PollCounts | null> {
  return poll.counts ?? (await settleCounts(poll.guild_id, poll.poll_id));
}

/** The poll's counts alone, without voter IDs: what an open poll's message shows. */
export async function readCountedTally(poll: Poll): Promise<Tally> {
  const counts = await countsNow(poll);
  return counts ? countedTally(poll, counts) : tallyOf(poll, []);
}

export async function readTally(poll: Poll): Promise<Tally> {
  const counts = await countsNow(poll);
  if (!counts || counts.total === 0) return tallyOf(poll, []);
  if (poll.is_anonymous || counts.total > LISTED_VOTES) return countedTally(poll, counts);
  const voters = await votersUpTo(poll.guild_id, poll.poll_id, LISTED_VOTES);
  // Votes came in since the poll was read and it is no longer small: its counts alone.
  if (voters === null) return countedTally(poll, counts);
  const tally = tallyOf(poll, voters);
  return tally.total > LISTED_VOTES ? { ...tally, voters: null } : tally;
}

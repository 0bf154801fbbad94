/**
 * The refresh a vote asks for, apart from lifecycle.ts so the vote's
 * bundle carries only this and not the close, delete and voter-sweep
 * machinery (and what those load at start) it never runs.
 */
import { type DueItem, scheduler } from '#shared/scheduler/index.js';
import { PollJobs, dueKeyOf } from './keys.js';

/** After the first vote, the message is re-rendered this much later; votes within the window share one edit. */
export const REFRESH_DELAY_MS = 1500;

/** Asks for the poll's message to be re-rendered soon (votes; coalesced per poll); `seen` is the pending refresh as read before the vote was saved. */
export function requestRefresh(guildId: string, pollId: string, seen?: DueItem | null): Promise<void> {
  return scheduler.requestSoon(PollJobs.refresh, dueKeyOf(guildId, pollId), REFRESH_DELAY_MS, { guild_id: guildId, poll_id: pollId }, seen);
}

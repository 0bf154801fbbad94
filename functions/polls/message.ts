/**
 * Keeping a poll's message in step with its poll: one writer at a time
 * (a render lease on the poll item), rendering what the store says right
 * now, and skipping an edit when the message already shows it. Votes,
 * edits, closing and privacy deletions all end here, so the last state
 * always wins and a closed poll's results are written once.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PlatformCode, isPlatformError, isPlatformNotFound, platform } from '#shared/platform/client.js';
import { type Poll, PollType, type Tally, isClosing } from './model.js';
import { renderHash, renderPollMessage } from './render.js';
import { type RenderChanges, releaseRenderLease, takeRenderLease } from './store.js';
import { readCountedTally, readTally } from './tally.js';

/** Longer than one render with the platform client's retries; a holder that died frees it after this. */
const RENDER_LEASE_MS = 30_000;
/** How long a request waits for another render of the same poll to finish. */
const WAIT_FOR_LEASE_MS = 8_000;

export type SyncOutcome = 'done' | 'busy' | 'gone';

/**
 * What a sync did. When it rendered: the poll as the render left it, and the
 * counts the message shows (none for a native poll or one without a
 * message), so a caller answering with the poll need not read either again;
 * and the poll as the render read it (its `vote_seq` is what the message
 * shows at least, its `rendered_seq` and `rendered_at` the render before).
 */
export interface Synced {
  outcome: SyncOutcome;
  poll?: Poll;
  tally?: Tally;
  read?: Poll;
}

/** What a render changed on the poll item, and the counts it showed. */
interface Rendered {
  changes: RenderChanges;
  tally?: Tally;
}

async function renderNow(poll: Poll, answer: boolean): Promise<Rendered> {
  const closing = isClosing(poll);
  const closed = poll.status === 'closed' || closing;
  // A close under way ends here: the results shown, then closed with them in the lease's one write (CONTRACT 16).
  const results: RenderChanges = closing
    ? { status: 'closed', closed_at: poll.closing_at!, delete_at: poll.closing_delete_at ?? poll.delete_at, edited_with_results: true }
    : { edited_with_results: true };
  const shownAs: Poll = closing ? { ...poll, status: 'closed', closed_at: poll.closing_at! } : poll;
  if (poll.poll_type === PollType.Native) {
    if (!closed || (poll.edited_with_results && !closing)) return { changes: {} };
    // Only the author may end a native poll; a member's poll the bot registered ends on the platform by itself.
    if (poll.sent_by_service && poll.message_id) {
      try {
        await platform.endPoll(poll.channel_id, poll.message_id);
      } catch (error) {
        const alreadyOver = isPlatformError(error, { code: PlatformCode.PollExpired }) || isPlatformNotFound(error);
        if (!alreadyOver) throw error;
      }
    }
    return { changes: results };
  }
  if (!poll.message_id) return { changes: closed ? results : {} };
  // An open poll's message shows counts only: its voters are read when it shows them (closed) or the caller answers with them.
  const tally = closed || answer ? await readTally(poll) : await readCountedTally(poll);
  const message = renderPollMessage(shownAs, tally);
  const hash = renderHash(message);
  if (hash !== poll.rendered_hash) {
    try {
      await platform.editMessage(poll.channel_id, poll.message_id, message);
    } catch (error) {
      // A message someone deleted shows nothing any more; the poll itself carries on.
      if (!isPlatformNotFound(error)) throw error;
    }
  }
  // The counts came with the poll as the lease read it: the message shows at least its vote_seq.
  const shown = { rendered_hash: hash, rendered_seq: poll.vote_seq ?? 0, rendered_at: Date.now() };
  return { changes: closed ? { ...shown, ...results } : shown, tally };
}

/**
 * Renders the poll's message from the store under the render lease.
 * `wait`: wait a little for another render in progress; otherwise answer
 * `busy` at once. `gone`: the poll no longer exists. A platform failure
 * throws (the lease is given back first). `answer`: the caller answers with
 * the poll, so the tally lists its voters (an open poll's message alone
 * needs its counts, which come with the lease).
 */
export async function syncPollMessage(guildId: string, pollId: string, options: { wait?: boolean; answer?: boolean } = {}): Promise<Synced> {
  const leaseId = randomUUID();
  const giveUpAt = Date.now() + (options.wait ? WAIT_FOR_LEASE_MS : 0);
  for (let round = 0; ; round++) {
    const now = Date.now();
    const taken = await takeRenderLease(guildId, pollId, leaseId, now + RENDER_LEASE_MS, now);
    if (taken === null) return { outcome: 'gone' };
    if (taken === 'busy') {
      if (Date.now() >= giveUpAt) return { outcome: 'busy' };
      await sleep(Math.min(400, 25 * 2 ** Math.min(round, 4)) + Math.random() * 25);
      continue;
    }
    let rendered: Rendered;
    try {
      rendered = await renderNow(taken, options.answer === true);
    } catch (error) {
      await releaseRenderLease(guildId, pollId, leaseId, {});
      throw error;
    }
    const poll = await releaseRenderLease(guildId, pollId, leaseId, rendered.changes);
    return { outcome: 'done', poll: poll ?? undefined, tally: rendered.tally, read: taken };
  }
}

/**
 * A poll's life after it is posted: it closes (by its owner, by the bot, or
 * by itself at `end_time`), shows its results, and at `delete_at` its data
 * (and, when the settings say so, its message) goes. The timers are due
 * work in the shared scheduler; closing and deleting check the poll's state
 * first, so running twice acts once.
 */
import { notFound, unprocessable } from '#shared/errors.js';
import { type ModuleStateItem, readModuleState } from '#shared/modules/store.js';
import { MODULE_CATALOGUE } from '#shared/modules/catalogue.js';
import { isPlatformError, isPlatformNotFound, platform } from '#shared/platform/client.js';
import { keyOf } from '#shared/db/batch.js';
import { removal } from '#shared/scheduler/removal.js';
import { type HandlerResult, cancel, cancelAll, scheduler } from '#shared/scheduler/index.js';
import { PollJobs, VOTER_SWEEP_ENTITY, VOTER_SWEEP_JOB, VoterEntity, VoterSweepEntity, dueKeyOf, parseDueKey, votersPartition } from './keys.js';
import { type Synced, syncPollMessage } from './message.js';
import { type Poll, type PollNow, PollType } from './model.js';
import { deletePollItem, getPoll, updatePoll } from './store.js';
import { REFRESH_DELAY_MS, requestRefresh } from './refresh-request.js';

/** The module's settings as the use cases read them. */
export interface PollSettings {
  save_duration_timeout: number;
  delete_ended_platform_polls: boolean;
  delete_ended_service_polls: boolean;
}

/**
 * In a rush the window widens (behaviour §7): after a render, the next one
 * waits this many milliseconds for each vote a second the poll received
 * since the render before, at least REFRESH_DELAY_MS and at most
 * MAX_REFRESH_SPACING_MS. A window of `r` votes a second then holds about
 * 0.375 r² votes (600 at 40 a second), so its five-odd requests are under
 * 0.01 a vote from 40 votes a second up, while a poll with a few votes a
 * second keeps its 1.5 s windows (up to 4 a second; 7.5 s at 20).
 */
export const SPACING_PER_VOTE_RATE_MS = 375;
export const MAX_REFRESH_SPACING_MS = 15_000;

const DEFAULTS = MODULE_CATALOGUE.polls.defaults as unknown as PollSettings;

/** The poll settings in a module state item (defaults where it has none). */
export const settingsOf = (state: ModuleStateItem | null): PollSettings => ({ ...DEFAULTS, ...(state?.settings as Partial<PollSettings> | undefined) });

/** The guild's poll settings, whatever the module's state (timers run while it is disabled). */
export async function pollSettings(guildId: string): Promise<PollSettings> {
  return settingsOf(await readModuleState(guildId, 'polls'));
}

const payloadOf = (guildId: string, pollId: string) => ({ guild_id: guildId, poll_id: pollId });

export function scheduleClose(poll: Pick<Poll, 'guild_id' | 'poll_id' | 'end_time'>): Promise<void> {
  return scheduler.scheduleAt(PollJobs.close, dueKeyOf(poll.guild_id, poll.poll_id), poll.end_time, payloadOf(poll.guild_id, poll.poll_id));
}

export function scheduleDelete(guildId: string, pollId: string, at: number): Promise<void> {
  return scheduler.scheduleAt(PollJobs.delete, dueKeyOf(guildId, pollId), at, payloadOf(guildId, pollId));
}

/**
 * How long after a render the next may start: from the votes written since
 * the render before (`read`, the poll as this render read it), over at
 * least REFRESH_DELAY_MS (a first render counts from the poll's creation).
 */
export function refreshSpacing(read: Pick<Poll, 'created_at' | 'vote_seq' | 'rendered_seq' | 'rendered_at'>, now: number): number {
  const since = read.rendered_at ?? Date.parse(read.created_at);
  if (!Number.isFinite(since)) return REFRESH_DELAY_MS;
  const votes = Math.max(0, (read.vote_seq ?? 0) - (read.rendered_seq ?? 0));
  const perSecond = votes / (Math.max(REFRESH_DELAY_MS, now - since) / 1000);
  return Math.round(Math.min(MAX_REFRESH_SPACING_MS, Math.max(REFRESH_DELAY_MS, perSecond * SPACING_PER_VOTE_RATE_MS)));
}

/**
 * The refresh job's run: renders the message from the store, then says when
 * the next run may come. Votes written while it rendered (the poll's
 * `vote_seq` past the one it showed) are the next window's at once, one
 * write, instead of a completion that fails on their requests; otherwise
 * the run is done, and requests that came in meanwhile run again after the
 * window.
 */
export async function refreshPollMessage(guildId: string, pollId: string): Promise<HandlerResult> {
  const synced = await syncPollMessage(guildId, pollId);
  // Another writer holds the message (an edit, a close): try again shortly.
  if (synced.outcome === 'busy') return { next: Date.now() + 1000 };
  if (!synced.read) return;
  const now = Date.now();
  const spacingMs = refreshSpacing(synced.read, now);
  if ((synced.poll?.vote_seq ?? 0) > (synced.read.vote_seq ?? 0)) return { next: now + spacingMs };
  return { spacingMs };
}

/** Forgets the poll's timers and pending refresh, except the job currently running (it completes itself). */
export async function cancelPollWork(guildId: string, pollId: string, except?: string): Promise<void> {
  const key = dueKeyOf(guildId, pollId);
  await cancelAll(
    Object.values(PollJobs)
      .filter((job) => job !== except)
      .map((job) => ({ job, key })),
  );
}

export type CloseTrigger = 'request' | 'timer';

/**
 * Closes an open poll: `delete_at` = now + the guild's
 * `save_duration_timeout` (unless the bot gave one), the message edited with
 * the results (a native poll ended on the platform), then `status` closed
 * with `closed_at`, `delete_at` and `edited_with_results` in one write
 * (CONTRACT 16). First a close under way is noted (`closing_at`, one write
 * conditional on the poll being open with none under way): from then votes
 * and edits are refused, so the results shown are final; the render that
 * shows them writes the close as it gives its lease back.
 *
 * For a request, a platform failure undoes its close (the poll open again)
 * and answers 502, and a poll closed already is 422; a close under way by
 * the timer is finished with it. For the timer, a poll already closing or
 * closed only gets what it still lacks, and failures retry.
 */
export async function closePoll(poll: Poll, trigger: CloseTrigger, settings?: PollSettings): Promise<PollNow> {
  const { guild_id: guildId, poll_id: pollId } = poll;
  const closedAt = Date.now();
  const deleteAt = poll.delete_at ?? closedAt + (settings ?? (await pollSettings(guildId))).save_duration_timeout * 1000;
  // The delete timer goes first: a closed poll always has one.
  if (poll.delete_at === null) await scheduleDelete(guildId, pollId, deleteAt);
  let closing = await updatePoll(guildId, pollId, { closing_at: closedAt, closing_delete_at: deleteAt }, { status: 'open', notClosing: true });
  const mine = closing !== null;
  if (!closing) {
    const current = await getPoll(guildId, pollId);
    if (!current) {
      if (trigger === 'request') throw notFound(`There is no poll ${pollId} in guild ${guildId}.`);
      return { poll };
    }
    if (trigger === 'request' && current.status === 'closed') throw unprocessable(`Poll ${pollId} is closed already.`);
    closing = current;
  }
  let synced: Synced;
  try {
    synced = await syncPollMessage(guildId, pollId, { wait: true, answer: true });
    // Another render held the message too long: the results, and the close with them, follow through the refresh job.
    if (synced.outcome === 'busy') await requestRefresh(guildId, pollId);
  } catch (error) {
    if (trigger === 'request' && mine) {
      await updatePoll(guildId, pollId, { closing_at: 0 }, { status: 'open' });
      if (poll.delete_at === null) await cancel(PollJobs.delete, dueKeyOf(guildId, pollId));
    }
    throw error;
  }
  if (trigger === 'request') await cancel(PollJobs.close, dueKeyOf(guildId, pollId));
  return { poll: synced.poll ?? (await getPoll(guildId, pollId)) ?? closing, tally: synced.tally };
}

/** A voter removal's scope is the poll's key in the scheduler, `<guild>#<poll_id>`. */
const sweepScopeOf = (scope: string) => parseDueKey(scope)!;

/**
 * The voters of a deleted poll, 100,000 or more, go behind the answer of
 * the delete in bounded runs (behaviour §15). The removal is noted before
 * the poll item goes, so a crash between the two leaves a removal that
 * finishes once the poll is gone; until then a run deletes nothing (it
 * fails, and the scheduler runs it again). Once the poll is gone its voters
 * own nothing: a vote needs the poll, every listing and count starts from
 * it, and `handler/create` refuses its ID until the removal is over.
 */
// Marked, and its arguments read no property, so the bundles that never run the sweep (reads, votes) leave it and the removal code out.
export const voterSweep = /* @__PURE__ */ removal({
  job: VOTER_SWEEP_JOB,
  place: (scope) => VoterSweepEntity.key(sweepScopeOf(scope)),
  placeEntity: VOTER_SWEEP_ENTITY,
  range: (scope) => {
    const { guildId, pollId } = sweepScopeOf(scope);
    return { pk: votersPartition(guildId, pollId), prefix: VoterEntity.prefix };
  },
  projection: 'pk, sk',
  select: async (scope, _pending, items) => {
    const { guildId, pollId } = sweepScopeOf(scope);
    if (items.length > 0 && (await getPoll(guildId, pollId))) throw new Error(`poll ${pollId} of guild ${guildId} is not deleted yet; its voters stay`);
    return items.map(keyOf);
  },
  maxPages: 200,
  pagesEnv: 'POLLS_SWEEP_PAGES',
});

/** Whether the voters of a deleted poll with this ID are still being removed (its ID is not free yet). */
export const votersBeingRemoved = async (guildId: string, pollId: string) => (await voterSweep.get(dueKeyOf(guildId, pollId))) !== null;

/**
 * Removes a poll's data: its timers, its item, and its voters behind the
 * answer ({@link voterSweep}); first its message when `deleteMessage` (a
 * message already gone is fine; with `tolerateRefusal`, so is a platform
 * that refuses, e.g. a member's message the bot may not delete). Answers
 * the poll as it was, or null.
 */
export async function removePoll(poll: Poll, options: { deleteMessage: boolean; tolerateRefusal?: boolean; runningJob?: string }): Promise<Poll | null> {
  if (options.deleteMessage && poll.message_id) {
    try {
      await platform.deleteMessage(poll.channel_id, poll.message_id);
    } catch (error) {
      const refused = isPlatformError(error) && error.platformStatus !== undefined && error.platformStatus < 500 && error.platformStatus !== 429;
      if (!isPlatformNotFound(error) && !(options.tolerateRefusal && refused)) throw error;
    }
  }
  await voterSweep.start(dueKeyOf(poll.guild_id, poll.poll_id), new Date().toISOString());
  await cancelPollWork(poll.guild_id, poll.poll_id, options.runningJob);
  return deletePollItem(poll.guild_id, poll.poll_id);
}

/** Whether the settings ask for the ended poll's message to go with its data. */
export function deletesMessage(poll: Poll, settings: PollSettings): boolean {
  return poll.poll_type === PollType.Native ? settings.delete_ended_platform_polls : settings.delete_ended_service_polls;
}

/** The close timer: the poll's end time has come. */
export async function closeDuePoll(guildId: string, pollId: string): Promise<void> {
  const poll = await getPoll(guildId, pollId);
  if (!poll) return;
  if (poll.status === 'closed' && poll.edited_with_results) return;
  await closePoll(poll, 'timer');
}

/** The delete timer: `delete_at` has come. */
export async function deleteDuePoll(guildId: string, pollId: string): Promise<void> {
  const poll = await getPoll(guildId, pollId);
  if (!poll) return;
  const settings = await pollSettings(guildId);
  await removePoll(poll, { deleteMessage: deletesMessage(poll, settings), tolerateRefusal: true, runningJob: PollJobs.delete });
}

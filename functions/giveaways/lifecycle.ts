/**
 * A giveaway's life after it is posted (behaviour §9 and §12), as due work in
 * the shared scheduler, each step safe to repeat:
 * - the end at `end_time`: entries are closed first (`_closed`, one
 *   conditional write; the giveaway stays `running`), then round 1 is drawn
 *   from the entrants as they stand closed, read in pieces over several
 *   runs (`endGiveaway`; each piece one write conditional on the version
 *   read, so never a second round 1), then the message is edited and one
 *   announcement posted (with a nonce the platform enforces), then one write
 *   makes it `ended` with its winners, seed, rounds, hash,
 *   `edited_with_results` and `delete_at`;
 *   a redelivery or a second consumer finds each step done and goes on;
 * - the deletion at `delete_at` (and the message with `delete_ended_giveaways`),
 *   then of its entrant items, a piece a run;
 * - the entrant count on the message, refreshed at most every few seconds.
 */
import { readModuleState } from '#shared/modules/store.js';
import { isPlatformNotFound, nonceFrom, platform } from '#shared/platform/client.js';
import type { MessageCreate } from '#shared/platform/types.js';
import { type DueItem, cancelAll, requestLater, scheduler } from '#shared/scheduler/index.js';
import { HASH_CHUNK, HASH_START, chainHash, drawPlaces } from './draw.js';
import { entrantsFrom, moveLegacyEntrants, purgeEntrants } from './entrants.js';
import { announcement, giveawayMessage } from './render.js';
import { type DrawProgress, type Giveaway, MARK_EVERY, deleteGiveaway, getGiveaway, updateGiveaway } from './store.js';
import { GiveawayJobs } from './jobs.js';

export { GiveawayJobs };

/** Enters and leaves within this window share one message edit. */
export const REFRESH_DELAY_MS = 2000;

export const dueKeyOf = (guildId: string, entryId: string) => `${guildId}#${entryId}`;
export function parseDueKey(key: string): { guildId: string; entryId: string } | null {
  const at = key.indexOf('#');
  return at > 0 ? { guildId: key.slice(0, at), entryId: key.slice(at + 1) } : null;
}

export const scheduleEnd = (g: Pick<Giveaway, 'guild_id' | 'entry_id' | 'end_time'>) =>
  scheduler.scheduleAt(GiveawayJobs.end, dueKeyOf(g.guild_id, g.entry_id), Date.parse(g.end_time));
/** The pending refresh's fields as a due item (read with an entrant's module state). */
export const refreshDueOf = (guildId: string, entryId: string) => ({ job: GiveawayJobs.refresh, key: dueKeyOf(guildId, entryId) });
/** Asks for the message's entrant count to be shown soon; `seen` is the pending refresh as read before the change was saved. */
export const requestRefresh = (guildId: string, entryId: string, seen?: DueItem | null) =>
  scheduler.requestSoon(GiveawayJobs.refresh, dueKeyOf(guildId, entryId), REFRESH_DELAY_MS, {}, seen);

export async function cancelTimers(guildId: string, entryId: string): Promise<void> {
  await cancelAll(Object.values(GiveawayJobs).map((job) => ({ job, key: dueKeyOf(guildId, entryId) })));
}

/** Edits the giveaway's message to show `g`; a message deleted meanwhile is fine. */
async function showMessage(g: Giveaway): Promise<void> {
  if (!g.message_id) return;
  try {
    await platform.editMessage(g.channel_id, g.message_id, giveawayMessage(g));
  } catch (error) {
    if (!isPlatformNotFound(error)) throw error;
  }
}

/**
 * Edits the giveaway's message to what the stored giveaway is now. Not while
 * its end is drawing (entries closed, still running): the end shows the
 * result itself, and a refresh landing after it would put the buttons back.
 */
export async function showGiveaway(guildId: string, entryId: string): Promise<Giveaway | null> {
  const g = await getGiveaway(guildId, entryId);
  if (g && !(g.status === 'running' && g._closed !== undefined)) await showMessage(g);
  return g;
}

/** The announcement of a round, once: its nonce makes a repeated post the same message. */
export async function announceRound(g: Giveaway, winners: string[], round: number): Promise<void> {
  const body: MessageCreate = { ...announcement(g, winners, round), nonce: nonceFrom(`${g.entry_id}:${round}`) };
  try {
    await platform.createMessage(g.channel_id, body);
  } catch (error) {
    if (!isPlatformNotFound(error)) throw error;
  }
}

async function settings(guildId: string): Promise<{ save_duration_timeout: number; delete_ended_giveaways: boolean }> {
  const state = await readModuleState(guildId, 'giveaways');
  return { save_duration_timeout: 604800, delete_ended_giveaways: false, ...(state?.settings as object | undefined) };
}

/**
 * Entrants one run of the end reads (a whole number of hash chunks): some
 * 8 Query pages of 1 MB, well under a second on AWS, well inside the
 * function's 10 s (about 3 s on local mode's dynalite).
 */
export const DRAW_PIECE = 50_000;

/**
 * One run of a giveaway's end (the job's work; runs while the module is
 * disabled too, so no giveaway stays open forever), each step kept by a
 * write conditional on what it read, so a repeat or a second consumer
 * changes nothing:
 * 1. entries close (`_closed`): the count is final; the giveaway stays
 *    `running`, and enters, leaves and edits are refused as after the end;
 * 2. a giveaway of the old layout moves its set into entrant items;
 * 3. the places of round 1's winners in the sorted list are drawn from the
 *    count alone (`drawPlaces`), kept in `_draw`;
 * 4. each run reads the next `piece` entrants in order, hashing them and
 *    noting the members at those places; the last one marks the draw done;
 * 5. the message is edited with the result and the round announced (its
 *    nonce makes a repeat the same message), then one write makes the
 *    giveaway `ended` with its winners, seed, rounds, `edited_with_results`
 *    and `delete_at` (behaviour §12.1, §15): a read never sees an end
 *    without its result.
 * Answers `{ next }` while pieces are left: the scheduler runs it again.
 */
export async function endGiveaway(guildId: string, entryId: string, piece = DRAW_PIECE): Promise<{ next: number } | undefined> {
  let g = await getGiveaway(guildId, entryId);
  if (!g) return;
  if (g.status === 'running' && g._closed === undefined) {
    await updateGiveaway(guildId, entryId, { _closed: new Date().toISOString() }, { version: g._version });
    g = await getGiveaway(guildId, entryId);
    if (!g) return;
    // Changed meanwhile (a privacy delete): close it on the next run, from what it is then.
    if (g.status === 'running' && g._closed === undefined) return { next: Date.now() };
  }
  if (g.rounds.length === 0) {
    if (g.legacy.length) {
      await moveLegacyEntrants(guildId, entryId, g.legacy);
      return { next: Date.now() };
    }
    if (!drawDone(g)) {
      const drawn = await drawPiece(g, piece);
      if (drawn === 'gone') return;
      if (drawn === 'more') return { next: Date.now() };
      g = drawn;
    }
    const ended = await publishEnd(g);
    if (ended === 'gone') return;
    if (ended === 'again') return { next: Date.now() };
    g = ended;
  } else if (!g.edited_with_results) {
    // Ended by an earlier version, which wrote the result before the message: the message and announcement it still owes.
    await showGiveaway(guildId, entryId);
    await announceRound(g, g.rounds[0]?.winners ?? [], 1);
    await updateGiveaway(guildId, entryId, { edited_with_results: true });
  }
  if (g.delete_at) await scheduler.scheduleAt(GiveawayJobs.delete, dueKeyOf(guildId, entryId), Date.parse(g.delete_at));
}

/** Whether round 1 is drawn from the entrants as they stand: a privacy delete since changes the count, and the draw starts again. */
const drawDone = (g: Giveaway) => g._draw?.done !== undefined && g._draw.count === g.participant_count;

/** Steps 3 and 4 of the end: one piece of the draw; the giveaway once the draw is done, 'more' while pieces are left. */
async function drawPiece(closed: Giveaway, piece: number): Promise<Giveaway | 'more' | 'gone'> {
  const { guild_id: guildId, entry_id: entryId } = closed;
  const ongoing = closed._draw && closed._draw.done === undefined && closed._draw.count === closed.participant_count ? closed._draw : null;
  const progress: DrawProgress = ongoing ?? {
    count: closed.participant_count,
    read: 0,
    after: null,
    hash: HASH_START,
    ranks: drawPlaces(closed._seed, entryId, 1, closed.winner_count, closed.participant_count),
    found: {},
  };
  // Whole hash chunks a piece, so the pieces' hashes chain as the whole list's; one entrant more than the count shows a list too long.
  const asked = Math.min(Math.max(HASH_CHUNK, piece - (piece % HASH_CHUNK)), progress.count - progress.read + 1);
  const ids = await entrantsFrom(guildId, entryId, progress.after, asked);
  const taken = ids.slice(0, progress.count - progress.read);
  const found = { ...progress.found };
  for (const place of progress.ranks) {
    const at = place - progress.read;
    if (at >= 0 && at < taken.length) found[place] = taken[at]!;
  }
  const marks = [...(progress.marks ?? [])];
  for (let k = Math.ceil((progress.read + 1) / MARK_EVERY); k * MARK_EVERY - 1 < progress.read + taken.length; k++) {
    if (k > 0) marks[k - 1] = taken[k * MARK_EVERY - 1 - progress.read]!;
  }
  const read = progress.read + taken.length;
  const hash = chainHash(progress.hash, taken);
  const finished = read === progress.count || ids.length < asked;
  // The list must be the count's: a privacy delete between the close and here makes it shorter, and the draw starts again.
  const whole = read === progress.count && ids.length === taken.length;
  const next = { ...progress, read, after: taken.at(-1) ?? progress.after, hash, found, marks };
  const fields = { _draw: !finished ? next : whole ? { ...next, done: new Date().toISOString() } : undefined };
  // Conditional on the version read: a second consumer that read the same piece writes nothing.
  await updateGiveaway(guildId, entryId, fields, { version: closed._version });
  const g = await getGiveaway(guildId, entryId);
  if (!g) return 'gone';
  return g.rounds.length || drawDone(g) ? g : 'more';
}

/**
 * Step 5: the drawn round shown on the platform, then the end in one write,
 * conditional on the version and the count the draw read. Answers the ended
 * giveaway; 'again' when it changed meanwhile (a privacy delete: the next
 * run draws again if the count moved), 'gone' when it was deleted.
 */
async function publishEnd(g: Giveaway): Promise<Giveaway | 'gone' | 'again'> {
  if (g.rounds.length) return g;
  const { guild_id: guildId, entry_id: entryId } = g;
  const draw = g._draw!;
  const winners = draw.ranks.map((place) => draw.found[place]!);
  const closedAt = Date.parse(g._closed ?? g.end_time);
  const fields = {
    status: 'ended' as const,
    winners: winners.join(','),
    seed: g._seed,
    rounds: [{ round: 1, winners, drawn_at: draw.done! }],
    participants_hash: draw.hash,
    edited_with_results: true,
    // A giveaway an earlier version closed (status ended before its draw) keeps the delete_at it was given then.
    delete_at: g.delete_at ?? new Date(closedAt + (await settings(guildId)).save_duration_timeout * 1000).toISOString(),
    _draw: undefined,
    _drawn_count: draw.count,
    _places: [draw.ranks],
    _marks: draw.marks ?? [],
  };
  const ended: Giveaway = { ...g, ...fields, winners, _draw: null };
  await showMessage(ended);
  await announceRound(ended, winners, 1);
  if (await updateGiveaway(guildId, entryId, fields, { version: g._version, count: draw.count })) return ended;
  const now = await getGiveaway(guildId, entryId);
  if (!now) return 'gone';
  return now.rounds.length ? now : 'again';
}

/** At `delete_at`: the giveaway's data goes, and its message too when the settings say so; then its entrants, a piece a run. */
export async function deleteEndedGiveaway(guildId: string, entryId: string): Promise<{ next: number } | undefined> {
  const g = await getGiveaway(guildId, entryId);
  if (g) {
    if ((await settings(guildId)).delete_ended_giveaways && g.message_id) {
      try {
        await platform.deleteMessage(g.channel_id, g.message_id);
      } catch (error) {
        if (!isPlatformNotFound(error)) throw error;
      }
    }
    await deleteGiveaway(guildId, entryId);
  }
  return (await purgeEntrants(guildId, entryId, PURGE_PIECE)) ? undefined : { next: Date.now() };
}

/** Entrant items one run of the deletion removes: 200 batches, eight at a time. */
const PURGE_PIECE = 5000;

/** A giveaway deleted before its time (by its owner, or with the settings): its entrants follow on the scheduler. */
export const purgeLater = (guildId: string, entryId: string) => requestLater(GiveawayJobs.delete, dueKeyOf(guildId, entryId), 0);

/**
 * A giveaway's life after it is posted (behaviour §9 and §12), as due work in
 * the shared scheduler, each step safe to repeat:
 * - the end at `end_time`: entries are closed first (status `ended`, one
 *   conditional write), then round 1 is drawn from the entrants as they
 *   stand closed, read in pieces over several runs (`endGiveaway`), and
 *   kept in `rounds` with the seed and the list's hash (each piece one write
 *   conditional on the version read, so never a second round 1), then the message is
 *   edited and one announcement posted (with a nonce the platform
 *   enforces), then `edited_with_results` set;
 *   a redelivery or a second consumer finds each step done and goes on;
 * - the deletion at `delete_at` (and the message with `delete_ended_giveaways`),
 *   then of its entrant items, a piece a run;
 * - the entrant count on the message, refreshed at most every few seconds.
 */
import { readModuleState } from '#shared/modules/store.js';
import { isPlatformNotFound, nonceFrom, platform } from '#shared/platform/client.js';
import type { MessageCreate } from '#shared/platform/types.js';
import { type DueItem, cancelAll, requestLater, scheduler } from '#shared/scheduler/index.js';
import { dueItemKey } from '#shared/scheduler/keys.js';
import { HASH_CHUNK, HASH_START, chainHash, drawPlaces } from './draw.js';
import { entrantsFrom, moveLegacyEntrants, purgeEntrants } from './entrants.js';
import { announcement, giveawayMessage } from './render.js';
import { type DrawProgress, type Giveaway, MARK_EVERY, deleteGiveaway, getGiveaway, updateGiveaway } from './store.js';

export const GiveawayJobs = { end: 'giveaways.end', delete: 'giveaways.delete', refresh: 'giveaways.refresh' } as const;
/** Enters and leaves within this window share one message edit. */
export const REFRESH_DELAY_MS = 2000;

export const dueKeyOf = (guildId: string, entryId: string) => `${guildId}#${entryId}`;
export function parseDueKey(key: string): { guildId: string; entryId: string } | null {
  const at = key.indexOf('#');
  return at > 0 ? { guildId: key.slice(0, at), entryId: key.slice(at + 1) } : null;
}

export const scheduleEnd = (g: Pick<Giveaway, 'guild_id' | 'entry_id' | 'end_time'>) =>
  scheduler.scheduleAt(GiveawayJobs.end, dueKeyOf(g.guild_id, g.entry_id), Date.parse(g.end_time));
/** The pending refresh's table key (read with an entrant's module state). */
export const refreshKeyOf = (guildId: string, entryId: string) => dueItemKey(GiveawayJobs.refresh, dueKeyOf(guildId, entryId));
/** Asks for the message's entrant count to be shown soon; `seen` is the pending refresh as read before the change was saved. */
export const requestRefresh = (guildId: string, entryId: string, seen?: DueItem | null) =>
  scheduler.requestSoon(GiveawayJobs.refresh, dueKeyOf(guildId, entryId), REFRESH_DELAY_MS, {}, seen);

export async function cancelTimers(guildId: string, entryId: string): Promise<void> {
  await cancelAll(Object.values(GiveawayJobs).map((job) => ({ job, key: dueKeyOf(guildId, entryId) })));
}

/** Edits the giveaway's message to what the stored giveaway is now; a message deleted meanwhile is fine. */
export async function showGiveaway(guildId: string, entryId: string): Promise<Giveaway | null> {
  const g = await getGiveaway(guildId, entryId);
  if (!g?.message_id) return g;
  try {
    await platform.editMessage(g.channel_id, g.message_id, giveawayMessage(g));
  } catch (error) {
    if (!isPlatformNotFound(error)) throw error;
  }
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
 * 1. entries close (`status` ended): the count is final;
 * 2. a giveaway of the old layout moves its set into entrant items;
 * 3. the places of round 1's winners in the sorted list are drawn from the
 *    count alone (`drawPlaces`), kept in `_draw`;
 * 4. each run reads the next `piece` entrants in order, hashing them and
 *    noting the members at those places; the last one writes round 1, the
 *    seed and `participants_hash` (behaviour §12.1);
 * 5. the message is edited and the round announced.
 * Answers `{ next }` while pieces are left: the scheduler runs it again.
 */
export async function endGiveaway(guildId: string, entryId: string, piece = DRAW_PIECE): Promise<{ next: number } | undefined> {
  let g = await getGiveaway(guildId, entryId);
  if (!g) return;
  if (g.status === 'running') {
    const endedAt = Date.now();
    const { save_duration_timeout } = await settings(guildId);
    await updateGiveaway(
      guildId,
      entryId,
      { status: 'ended', delete_at: new Date(endedAt + save_duration_timeout * 1000).toISOString() },
      { status: 'running' },
    );
    g = await getGiveaway(guildId, entryId);
    if (!g) return;
  }
  if (g.rounds.length === 0) {
    const drawn = await drawPiece(g, piece);
    if (drawn === 'gone') return;
    if (drawn === 'more') return { next: Date.now() };
    g = drawn;
  }
  if (!g.edited_with_results) {
    await showGiveaway(guildId, entryId);
    await announceRound(g, g.rounds[0]?.winners ?? [], 1);
    await updateGiveaway(guildId, entryId, { edited_with_results: true });
  }
  if (g.delete_at) await scheduler.scheduleAt(GiveawayJobs.delete, dueKeyOf(guildId, entryId), Date.parse(g.delete_at));
}

/** Steps 2 to 4 of the end: one piece of the draw; the giveaway once round 1 is kept, 'more' while pieces are left. */
async function drawPiece(ended: Giveaway, piece: number): Promise<Giveaway | 'more' | 'gone'> {
  const { guild_id: guildId, entry_id: entryId } = ended;
  let g: Giveaway | null = ended;
  if (g.legacy.length) {
    await moveLegacyEntrants(guildId, entryId, g.legacy);
    return 'more';
  }
  const progress: DrawProgress = g._draw ?? {
    count: g.participant_count,
    read: 0,
    after: null,
    hash: HASH_START,
    ranks: drawPlaces(g._seed, entryId, 1, g.winner_count, g.participant_count),
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
  const winners = progress.ranks.map((place) => found[place]!);
  const fields = !finished
    ? { _draw: { ...progress, read, after: taken.at(-1) ?? progress.after, hash, found, marks } }
    : whole
      ? {
          _draw: undefined,
          rounds: [{ round: 1, winners, drawn_at: new Date().toISOString() }],
          winners: winners.join(','),
          seed: g._seed,
          participants_hash: hash,
          _drawn_count: progress.count,
          _places: [progress.ranks],
          _marks: marks,
        }
      : { _draw: undefined };
  // Conditional on the version read: a second consumer that read the same piece writes nothing.
  await updateGiveaway(guildId, entryId, fields, { version: g._version });
  g = await getGiveaway(guildId, entryId);
  if (!g) return 'gone';
  return g.rounds.length ? g : 'more';
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

/**
 * A giveaway's life after it is posted (behaviour §9 and §12), as due work in
 * the shared scheduler, each step safe to repeat:
 * - the end at `end_time`: entries are closed first (status `ended`, one
 *   conditional write), then round 1 is drawn from the entrants as they
 *   stand closed and kept in `rounds` with the seed (one write conditional on
 *   the version read, so never a second round 1), then the message is
 *   edited and one announcement posted (with a nonce the platform
 *   enforces), then `edited_with_results` set;
 *   a redelivery or a second consumer finds each step done and goes on;
 * - the deletion at `delete_at` (and the message with `delete_ended_giveaways`);
 * - the entrant count on the message, refreshed at most every few seconds.
 */
import { readModuleState } from '#shared/modules/store.js';
import { isPlatformNotFound, nonceFrom, platform } from '#shared/platform/client.js';
import type { MessageCreate } from '#shared/platform/types.js';
import { type DueItem, cancelAll, scheduler } from '#shared/scheduler/index.js';
import { dueItemKey } from '#shared/scheduler/keys.js';
import { drawRound } from './draw.js';
import { announcement, giveawayMessage } from './render.js';
import { type Giveaway, deleteGiveaway, getGiveaway, updateGiveaway } from './store.js';

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

/** The end of a giveaway (the job's work); runs while the module is disabled too, so no giveaway stays open forever. */
export async function endGiveaway(guildId: string, entryId: string): Promise<void> {
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
    const winners = drawRound(g._seed, g.entry_id, 1, g.winner_count, g.entrants);
    // Conditional on the version read: a second consumer that drew at the same time writes nothing.
    await updateGiveaway(
      guildId,
      entryId,
      { rounds: [{ round: 1, winners, drawn_at: new Date().toISOString() }], winners: winners.join(','), seed: g._seed },
      { version: g._version },
    );
    g = await getGiveaway(guildId, entryId);
    if (!g) return;
    // Another change (a privacy delete) came between the read and the write: the job goes back to the queue and draws again.
    if (g.rounds.length === 0) throw new Error(`Giveaway ${entryId} of guild ${guildId} changed while its round 1 was drawn.`);
  }
  if (!g.edited_with_results) {
    await showGiveaway(guildId, entryId);
    await announceRound(g, g.rounds[0]?.winners ?? [], 1);
    await updateGiveaway(guildId, entryId, { edited_with_results: true });
  }
  if (g.delete_at) await scheduler.scheduleAt(GiveawayJobs.delete, dueKeyOf(guildId, entryId), Date.parse(g.delete_at));
}

/** At `delete_at`: the giveaway's data goes, and its message too when the settings say so. */
export async function deleteEndedGiveaway(guildId: string, entryId: string): Promise<void> {
  const g = await getGiveaway(guildId, entryId);
  if (!g) return;
  if ((await settings(guildId)).delete_ended_giveaways && g.message_id) {
    try {
      await platform.deleteMessage(g.channel_id, g.message_id);
    } catch (error) {
      if (!isPlatformNotFound(error)) throw error;
    }
  }
  await deleteGiveaway(guildId, entryId);
}

/**
 * Giveaways (behaviour §12): created with their message and a published seed
 * hash, entered and left by members with one conditional write each, edited,
 * deleted and rerolled by their owner. The end, the deletion and the
 * message refreshes are in `lifecycle.ts`.
 */
import { requireOwner } from '#shared/auth/owner.js';
import type { Caller } from '#shared/auth/caller.js';
import { recordIdAhead } from '#shared/db/record-ids.js';
import { notFound, unprocessable } from '#shared/errors.js';
import { mintOrderedId } from '#shared/ids.js';
import { joinIds } from '#shared/modules/store.js';
import { requireEnabled, requireEnabledRecord, requireEnabledWhile, requireEnabledWith } from '#shared/modules/state.js';
import { emit } from '#shared/observe/emit.js';
import { type DueItem, runWillFollow } from '#shared/scheduler/index.js';
import { isPlatformNotFound, platform } from '#shared/platform/client.js';
import { MAX_REROLLS, drawRound, mintSeed, seedHash } from './draw.js';
import { announceRound, cancelTimers, refreshKeyOf, requestRefresh, scheduleEnd, showGiveaway } from './lifecycle.js';
import { giveawayMessage } from './render.js';
import {
  type Giveaway,
  MAX_ENTRANTS,
  type Round,
  addEntrant,
  deleteGiveaway,
  getGiveaway,
  GiveawayEntity,
  insertGiveaway,
  listGiveaways,
  removeEntrant,
  updateGiveaway,
} from './store.js';

export const MODULE = 'giveaways';
const MAX_AHEAD_MS = 365 * 24 * 3600 * 1000;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The giveaway's API record (behaviour §11). */
export function giveawayRecord(g: Giveaway) {
  return {
    id: g.id,
    guild_id: g.guild_id,
    entry_id: g.entry_id,
    giveaway_id: g.entry_id,
    channel_id: g.channel_id,
    message_id: g.message_id,
    owner_id: g.owner_id,
    prize: g.prize,
    description: g.description,
    winner_count: g.winner_count,
    status: g.status,
    end_time: g.end_time,
    delete_at: g.delete_at,
    edited_with_results: g.edited_with_results,
    participants: joinIds(g.entrants),
    participant_count: g.entrants.length,
    winners: g.winners.join(','),
    seed_hash: g.seed_hash,
    seed: g.status === 'ended' ? g.seed : null,
    rounds: g.rounds,
    created_at: g.created_at,
  };
}

/** `end_time` as a time (epoch ms): a duration like `1d`, or an ISO 8601 date-time; 1 s to 365 days ahead. */
export function endTimeOf(value: string, now: number): number {
  const duration = /^([1-9][0-9]*)([smhd])$/.exec(value);
  const at = duration ? now + Number(duration[1]) * UNIT_MS[duration[2]!]! : /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(at))
    throw unprocessable(`Field 'end_time' must be a duration such as 30m, 12h or 7d, or an ISO 8601 date-time; '${value.slice(0, 40)}' is neither.`);
  if (at < now + 1000 || at > now + MAX_AHEAD_MS) throw unprocessable("Field 'end_time' must be between 1 second and 365 days from now.");
  return at;
}

export interface Asker {
  caller: Caller | null;
  actor: string | null;
}

/** The giveaway, when the module is enabled (409 first, then 404): both read in one request. */
async function loadGiveaway(guildId: string, entryId: string): Promise<Giveaway> {
  return GiveawayEntity.parse(
    await requireEnabledRecord(guildId, MODULE, GiveawayEntity.key({ guildId, entryId }), `Guild ${guildId} has no giveaway ${entryId}.`),
  );
}

export async function createGiveaway(
  guildId: string,
  input: { channel_id: string; giveaway_owner_id: string; prize: string; winner_count: number; end_time: string; description: string | null },
) {
  const id = recordIdAhead('giveaways.giveaway');
  await requireEnabled(guildId, MODULE);
  const now = Date.now();
  const endAt = endTimeOf(input.end_time, now);
  const seed = mintSeed();
  const g: Giveaway = {
    id: await id,
    guild_id: guildId,
    entry_id: mintOrderedId(now),
    channel_id: input.channel_id,
    message_id: null,
    owner_id: input.giveaway_owner_id,
    prize: input.prize,
    description: input.description,
    winner_count: input.winner_count,
    status: 'running',
    end_time: new Date(endAt).toISOString(),
    delete_at: null,
    edited_with_results: false,
    entrants: [],
    winners: [],
    seed_hash: seedHash(seed),
    seed: null,
    created_at: new Date(now).toISOString(),
    rounds: [],
    _seed: seed,
    _version: 1,
  };
  const message = await platform.createMessage(g.channel_id, giveawayMessage(g));
  g.message_id = message.id;
  try {
    await insertGiveaway(g);
    await scheduleEnd(g);
  } catch (error) {
    await platform.deleteMessage(g.channel_id, message.id).catch(() => undefined);
    throw error;
  }
  return { entry: giveawayRecord(g) };
}

export async function listGiveawayRecords(guildId: string) {
  const [, giveaways] = await requireEnabledWhile(guildId, MODULE, () => listGiveaways(guildId));
  return { entries: giveaways.map(giveawayRecord) };
}

export async function getGiveawayRecord(guildId: string, entryId: string) {
  return { entry: giveawayRecord(await loadGiveaway(guildId, entryId)) };
}

export async function editGiveaway(guildId: string, entryId: string, changes: { prize?: string; description?: string; winner_count?: number }, asker: Asker) {
  const g = await loadGiveaway(guildId, entryId);
  requireOwner(g.owner_id, `giveaway ${entryId}`, asker.caller, asker.actor, 'edit');
  if (g.status !== 'running') throw unprocessable(`Giveaway ${entryId} has ended; only a running giveaway can be edited.`);
  const fields = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (Object.keys(fields).length === 0) return { message: `Nothing to change in giveaway ${entryId}.` };
  if (!(await updateGiveaway(guildId, entryId, fields, { version: g._version, status: 'running' }))) {
    throw unprocessable(`Giveaway ${entryId} changed or ended while being edited; read it again and retry.`);
  }
  await showGiveaway(guildId, entryId);
  return { message: `Giveaway ${entryId} was edited.` };
}

export async function deleteGiveawayByOwner(guildId: string, entryId: string, asker: Asker) {
  const g = await loadGiveaway(guildId, entryId);
  requireOwner(g.owner_id, `giveaway ${entryId}`, asker.caller, asker.actor, 'delete');
  if (g.message_id) {
    try {
      await platform.deleteMessage(g.channel_id, g.message_id);
    } catch (error) {
      if (!isPlatformNotFound(error)) throw error;
    }
  }
  const deleted = (await deleteGiveaway(guildId, entryId)) ?? g;
  await cancelTimers(guildId, entryId);
  return { entry: giveawayRecord(deleted) };
}

const refusal = (entryId: string, memberId: string, why: string) => {
  switch (why) {
    case 'gone':
      return notFound(`There is no giveaway ${entryId}.`);
    case 'not-running':
      return unprocessable(`Giveaway ${entryId} has ended; entries are closed.`);
    case 'already':
      return unprocessable(`Member ${memberId} has already entered giveaway ${entryId}.`);
    case 'not-entered':
      return unprocessable(`Member ${memberId} has not entered giveaway ${entryId}, so there is nothing to leave.`);
    default:
      return unprocessable(`Giveaway ${entryId} is full: it takes at most ${MAX_ENTRANTS} entrants.`);
  }
};

/** A member (X-Acting-User-Id) enters or leaves: one conditional write; the message's count follows within seconds. */
export async function changeEntry(guildId: string, entryId: string, memberId: string, action: 'enter' | 'leave') {
  // The pending message refresh comes with the module state: an entrant landing well before it runs needs not ask for another.
  const refresh = (await requireEnabledWith(guildId, MODULE, refreshKeyOf(guildId, entryId))) as DueItem | null;
  const result = action === 'enter' ? await addEntrant(guildId, entryId, memberId) : await removeEntrant(guildId, entryId, memberId);
  if (result !== 'done') throw refusal(entryId, memberId, result);
  if (action === 'enter') emit({ entries: 1 });
  if (!runWillFollow(refresh)) await requestRefresh(guildId, entryId, refresh);
  return { message: action === 'enter' ? `Member ${memberId} entered giveaway ${entryId}.` : `Member ${memberId} left giveaway ${entryId}.` };
}

/** Rerolls of one giveaway at once each get their own round within this many tries; more means the table is struggling. */
const MAX_ATTEMPTS = MAX_REROLLS + 2;

/** The round a reroll of `g` draws next, or why there is none (422). */
function nextRound(g: Giveaway): Round {
  if (g.status !== 'ended' || g.rounds.length === 0) throw unprocessable(`Giveaway ${g.entry_id} is still running; reroll it after it ends.`);
  if (g.rounds.length > MAX_REROLLS)
    throw unprocessable(`Giveaway ${g.entry_id} has been rerolled ${MAX_REROLLS} times, the most a giveaway allows; its rounds stay as drawn.`);
  const round = g.rounds.length + 1;
  const winners = drawRound(
    g._seed,
    g.entry_id,
    round,
    g.winner_count,
    g.entrants,
    g.rounds.flatMap((r) => r.winners),
  );
  if (winners.length === 0) throw unprocessable(`Giveaway ${g.entry_id} has nobody left to draw: every entrant has won a round.`);
  return { round, winners, drawn_at: new Date().toISOString() };
}

/**
 * The owner draws the next round from the entrants not drawn yet; the message
 * and an announcement naming the round show it. The round is added by one
 * write conditional on the giveaway as read: a reroll that loses a race with
 * another reads again and draws the round after, so rerolls at once make
 * distinct consecutive rounds.
 */
export async function rerollGiveaway(guildId: string, entryId: string, asker: Asker) {
  let g = await loadGiveaway(guildId, entryId);
  requireOwner(g.owner_id, `giveaway ${entryId}`, asker.caller, asker.actor, 'reroll');
  for (let attempt = 1; ; attempt++) {
    const round = nextRound(g);
    if (await updateGiveaway(guildId, entryId, { rounds: [...g.rounds, round], winners: round.winners.join(',') }, { version: g._version })) {
      await showGiveaway(guildId, entryId);
      await announceRound({ ...g, winners: round.winners }, round.winners, round.round);
      return { message: `Reroll ${round.round - 1} (round ${round.round}) of giveaway ${entryId} drew ${round.winners.map((w) => `<@${w}>`).join(', ')}.` };
    }
    if (attempt === MAX_ATTEMPTS) throw unprocessable(`Giveaway ${entryId} kept changing while being rerolled; try again.`);
    const again = await getGiveaway(guildId, entryId);
    if (!again) throw notFound(`Guild ${guildId} has no giveaway ${entryId}.`);
    g = again;
  }
}

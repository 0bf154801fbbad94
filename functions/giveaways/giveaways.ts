/**
 * Giveaways (behaviour §12): created with their message and a published seed
 * hash, entered and left by members with one conditional write each, edited,
 * deleted and rerolled by their owner. The end, the deletion and the
 * message refreshes are in `lifecycle.ts`.
 */
import { type Asker, requireOwner } from '#shared/auth/owner.js';
import type { PageQuery } from '#shared/db/entity.js';
import { recordIdAhead } from '#shared/db/record-ids.js';
import { notFound, unprocessable } from '#shared/errors.js';
import { mintOrderedId } from '#shared/ids.js';
import { joinIds } from '#shared/modules/store.js';
import { requireEnabled, requireEnabledRecord, requireEnabledWhile, requireEnabledWith } from '#shared/modules/state.js';
import { emit } from '#shared/observe/emit.js';
import { DueEntity, runWillFollow } from '#shared/scheduler/index.js';
import { isPlatformNotFound, platform } from '#shared/platform/client.js';
import { MAX_REROLLS, drawPlaces, drawRound, mintSeed, seedHash } from './draw.js';
import { announceRound, cancelTimers, purgeLater, refreshDueOf, requestRefresh, scheduleEnd, showGiveaway } from './lifecycle.js';
import { giveawayMessage } from './render.js';
import { EntrantEntity, addEntrant, allEntrants, entrantsFrom, moveLegacyEntrants, removeEntrant } from './entrants.js';
import { type Giveaway, type Round, deleteGiveaway, getGiveaway, GiveawayEntity, MARK_EVERY, entriesOpen, insertGiveaway, updateGiveaway } from './store.js';
import { readPage } from '#shared/db/page.js';

export const MODULE = 'giveaways';
/** Rerolls of one giveaway at once each get their own round within this many tries; more means the table is struggling. */
const MAX_ATTEMPTS = MAX_REROLLS + 2;
const MAX_AHEAD_MS = 365 * 24 * 3600 * 1000;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Up to this many entrants a record lists them in `participants`; above, null, and the list is paged (behaviour §15). */
export const LISTED_ENTRANTS = 1000;

/** The giveaway's API record (behaviour §11, §15); `entrants` in numeric order, or null when there are more than LISTED_ENTRANTS. */
export function giveawayRecord(g: Giveaway, entrants: readonly string[] | null) {
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
    participants: entrants === null ? null : joinIds(entrants),
    participant_count: g.participant_count,
    participants_hash: g.participants_hash,
    winners: g.winners.join(','),
    seed_hash: g.seed_hash,
    seed: g.status === 'ended' ? g.seed : null,
    rounds: g.rounds,
    created_at: g.created_at,
  };
}

/** The entrants a record lists: every one while there are at most LISTED_ENTRANTS (one Query), else null. */
async function listedEntrants(g: Giveaway): Promise<string[] | null> {
  if (g.participant_count > LISTED_ENTRANTS) return null;
  const items = await entrantsFrom(g.guild_id, g.entry_id, null, LISTED_ENTRANTS);
  return [...g.legacy, ...items];
}

/** Giveaways as records, each with its listed entrants. */
export const giveawayRecords = (giveaways: readonly Giveaway[]) => Promise.all(giveaways.map(async (g) => giveawayRecord(g, await listedEntrants(g))));

/** `end_time` as a time (epoch ms): a duration like `1d`, or an ISO 8601 date-time; 1 s to 365 days ahead. */
export function endTimeOf(value: string, now: number): number {
  const duration = /^([1-9][0-9]*)([smhd])$/.exec(value);
  const at = duration ? now + Number(duration[1]) * UNIT_MS[duration[2]!]! : /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(at))
    throw unprocessable(`Field 'end_time' must be a duration such as 30m, 12h or 7d, or an ISO 8601 date-time; '${value.slice(0, 40)}' is neither.`);
  if (at < now + 1000 || at > now + MAX_AHEAD_MS) throw unprocessable("Field 'end_time' must be between 1 second and 365 days from now.");
  return at;
}

/** The giveaway, when the module is enabled (409 first, then 404): both read in one request. */
async function loadGiveaway(guildId: string, entryId: string): Promise<Giveaway> {
  return requireEnabledRecord(guildId, MODULE, GiveawayEntity, { guildId, entryId }, `Guild ${guildId} has no giveaway ${entryId}.`);
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
    participant_count: 0,
    legacy: [],
    participants_hash: null,
    _draw: null,
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
  return { entry: giveawayRecord(g, []) };
}

/** The cursor scope of a list: the guild's giveaways, or one giveaway's entrants. */
const scopeOf = (guildId: string, family: string) => ({ guildId, family: `giveaways/${family}`, filter: {} });

/**
 * A page of the guild's giveaways, newest first, read by key (behaviour
 * §3.6, §15): `page` or the signed `cursor` of the page before. A page holds
 * `page_size` giveaways unless its answer would pass its bytes
 * (`LIST_BYTES`): it then ends early, and `next_cursor` continues right after
 * its last giveaway.
 */
export async function listGiveawayRecords(guildId: string, query: PageQuery) {
  const scope = scopeOf(guildId, 'entries');
  const [, { items, ...fields }] = await requireEnabledWhile(guildId, MODULE, () =>
    readPage(GiveawayEntity, { guildId }, query, { scope, reverse: true, shown: async (g) => giveawayRecord(g, await listedEntrants(g)) }),
  );
  return { entries: items, ...fields };
}

export async function getGiveawayRecord(guildId: string, entryId: string) {
  const [record] = await giveawayRecords([await loadGiveaway(guildId, entryId)]);
  return { entry: record! };
}

/** A page of a giveaway's entrants in numeric order (behaviour §15): `page` or the signed `cursor` of the page before. */
export async function listParticipants(guildId: string, entryId: string, query: PageQuery) {
  let g = await loadGiveaway(guildId, entryId);
  if (g.legacy.length) g = await withoutLegacy(g);
  // The count is exact (kept with every entrant's item): the total is read from it, never counted.
  const scope = scopeOf(guildId, `participants/${entryId}`);
  const { items, ...fields } = await readPage(EntrantEntity, { guildId, entryId }, query, { scope, total: async () => g.participant_count });
  return { participants: items, ...fields };
}

/** A giveaway of the old layout with its set moved into entrant items (behaviour §15), read again. */
async function withoutLegacy(g: Giveaway): Promise<Giveaway> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const now = await getGiveaway(g.guild_id, g.entry_id);
    if (!now) throw notFound(`Guild ${g.guild_id} has no giveaway ${g.entry_id}.`);
    if (now.legacy.length === 0 || (await moveLegacyEntrants(now.guild_id, now.entry_id, now.legacy))) {
      return (await getGiveaway(g.guild_id, g.entry_id)) ?? now;
    }
  }
  throw unprocessable(`Giveaway ${g.entry_id} kept changing while its entrants were read; try again.`);
}

export async function editGiveaway(
  guildId: string,
  entryId: string,
  changes: { prize?: string; description?: string; winner_count?: number },
  asker: Omit<Asker, 'interaction'>,
) {
  const g = await loadGiveaway(guildId, entryId);
  requireOwner(g.owner_id, `giveaway ${entryId}`, asker.caller, asker.actor, 'edit');
  // Past end_time the draw may be running on what it read: refused as after the end.
  const now = Date.now();
  if (!entriesOpen(g, now)) throw unprocessable(`Giveaway ${entryId} has ended; only a running giveaway can be edited.`);
  const fields = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (Object.keys(fields).length === 0) return { message: `Nothing to change in giveaway ${entryId}.` };
  if (!(await updateGiveaway(guildId, entryId, fields, { version: g._version, open: new Date(now).toISOString() }))) {
    throw unprocessable(`Giveaway ${entryId} changed or ended while being edited; read it again and retry.`);
  }
  await showGiveaway(guildId, entryId);
  return { message: `Giveaway ${entryId} was edited.` };
}

/**
 * Owner only, while running: the end moves to now (one write, conditional
 * on the giveaway as read and still open), and the durable end draws and
 * announces the winners within seconds, exactly as at `end_time`.
 */
export async function endGiveawayNow(guildId: string, entryId: string, asker: Omit<Asker, 'interaction'>) {
  const g = await loadGiveaway(guildId, entryId);
  requireOwner(g.owner_id, `giveaway ${entryId}`, asker.caller, asker.actor, 'end');
  const now = new Date().toISOString();
  if (!entriesOpen(g, Date.parse(now))) throw unprocessable(`Giveaway ${entryId} has ended already; a reroll draws more winners.`);
  if (!(await updateGiveaway(guildId, entryId, { end_time: now }, { version: g._version, open: now }))) {
    throw unprocessable(`Giveaway ${entryId} changed or ended while being ended; read it again and retry.`);
  }
  await scheduleEnd({ guild_id: guildId, entry_id: entryId, end_time: now });
  return { message: `Giveaway ${entryId} ends now: its winners are drawn and announced within seconds.` };
}

export async function deleteGiveawayByOwner(guildId: string, entryId: string, asker: Omit<Asker, 'interaction'>) {
  const g = await loadGiveaway(guildId, entryId);
  requireOwner(g.owner_id, `giveaway ${entryId}`, asker.caller, asker.actor, 'delete');
  if (g.message_id) {
    try {
      await platform.deleteMessage(g.channel_id, g.message_id);
    } catch (error) {
      if (!isPlatformNotFound(error)) throw error;
    }
  }
  const entrants = await listedEntrants(g);
  const deleted = (await deleteGiveaway(guildId, entryId)) ?? g;
  await cancelTimers(guildId, entryId);
  await purgeLater(guildId, entryId);
  return { entry: giveawayRecord(deleted, entrants) };
}

const refusal = (entryId: string, memberId: string, why: string) => {
  switch (why) {
    case 'gone':
      return notFound(`There is no giveaway ${entryId}.`);
    case 'not-running':
      return unprocessable(`Giveaway ${entryId} has ended; entries are closed.`);
    case 'already':
      return unprocessable(`Member ${memberId} has already entered giveaway ${entryId}.`);
    default:
      return unprocessable(`Member ${memberId} has not entered giveaway ${entryId}, so there is nothing to leave.`);
  }
};

/** A member (X-Acting-User-Id) enters or leaves: one conditional write; the message's count follows within seconds. */
export async function changeEntry(guildId: string, entryId: string, memberId: string, action: 'enter' | 'leave') {
  // The pending message refresh comes with the module state: an entrant landing well before it runs needs not ask for another.
  const refresh = await requireEnabledWith(guildId, MODULE, DueEntity, refreshDueOf(guildId, entryId));
  const result = action === 'enter' ? await addEntrant(guildId, entryId, memberId) : await removeEntrant(guildId, entryId, memberId);
  if (result !== 'done') throw refusal(entryId, memberId, result);
  if (action === 'enter') emit({ entries: 1 });
  if (!runWillFollow(refresh)) await requestRefresh(guildId, entryId, refresh);
  return { message: action === 'enter' ? `Member ${memberId} entered giveaway ${entryId}.` : `Member ${memberId} left giveaway ${entryId}.` };
}

/** Whether the end's places and marks still describe the list: no entrant left it since (a privacy delete) and every round kept its places. */
const placesHold = (g: Giveaway) =>
  g._marks !== undefined && g._places !== undefined && g._drawn_count === g.participant_count && g._places.length === g.rounds.length;

/** The entrant at a place of the sorted list, read from the mark before it: at most MARK_EVERY entrants. */
async function entrantAtPlace(g: Giveaway, place: number): Promise<string> {
  const block = Math.floor(place / MARK_EVERY);
  const after = block === 0 ? null : g._marks![block - 1]!;
  const ids = await entrantsFrom(g.guild_id, g.entry_id, after, place - block * MARK_EVERY + 1);
  return ids.at(-1)!;
}

/**
 * The round a reroll of `g` draws next, or why there is none (422). The
 * same draw either way: from the places the end kept, reading only the
 * winners' entrants (at most MARK_EVERY each); or, when the list changed
 * since, from the whole list read a page at a time (`places` then null).
 */
async function nextRound(g: Giveaway): Promise<{ round: Round; places: number[] | null }> {
  if (g.status !== 'ended' || g.rounds.length === 0) throw unprocessable(`Giveaway ${g.entry_id} is still running; reroll it after it ends.`);
  if (g.rounds.length > MAX_REROLLS)
    throw unprocessable(`Giveaway ${g.entry_id} has been rerolled ${MAX_REROLLS} times, the most a giveaway allows; its rounds stay as drawn.`);
  const round = g.rounds.length + 1;
  let places: number[] | null = null;
  let winners: string[];
  if (placesHold(g)) {
    places = drawPlaces(g._seed, g.entry_id, round, g.winner_count, g.participant_count, g._places!.flat());
    winners = await Promise.all(places.map((place) => entrantAtPlace(g, place)));
  } else {
    winners = drawRound(
      g._seed,
      g.entry_id,
      round,
      g.winner_count,
      await allEntrants(g.guild_id, g.entry_id),
      g.rounds.flatMap((r) => r.winners),
    );
  }
  if (winners.length === 0) throw unprocessable(`Giveaway ${g.entry_id} has nobody left to draw: every entrant has won a round.`);
  return { round: { round, winners, drawn_at: new Date().toISOString() }, places };
}

/**
 * The owner draws the next round from the entrants not drawn yet; the message
 * and an announcement naming the round show it. The round is added by one
 * write conditional on the giveaway as read: a reroll that loses a race with
 * another reads again and draws the round after, so rerolls at once make
 * distinct consecutive rounds.
 */
export async function rerollGiveaway(guildId: string, entryId: string, asker: Omit<Asker, 'interaction'>) {
  let g = await loadGiveaway(guildId, entryId);
  requireOwner(g.owner_id, `giveaway ${entryId}`, asker.caller, asker.actor, 'reroll');
  if (g.legacy.length) g = await withoutLegacy(g);
  for (let attempt = 1; ; attempt++) {
    const { round, places } = await nextRound(g);
    // Places unknown (the whole list read) are dropped: later rerolls read the whole list too.
    const kept = { _places: places ? [...g._places!, places] : undefined };
    if (await updateGiveaway(guildId, entryId, { rounds: [...g.rounds, round], winners: round.winners.join(','), ...kept }, { version: g._version })) {
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

/**
 * Giveaways in the table, through their entity. One item
 * per giveaway in the guild's partition, `GIVEAWAY#<entry_id>` (entry IDs
 * start with the time, so the guild's giveaways list newest first), holding
 * the record and, apart from it:
 * - `participant_count`: the exact number of entrants, raised and lowered in
 *   the same atomic request as each entrant's own item (`entrants.ts`, where
 *   the entrants live; giveaways stored before kept them here, in the
 *   string set `participants`, read as `legacy` until moved);
 * - `_closed`: when the end closed entries (the count is then final); the
 *   giveaway stays `running` until its draw is done, and `_closed` or a past
 *   `end_time` refuses enters, leaves and edits as the end does.
 * - `_draw`: while the end's draw reads the entrants piece by piece, where it
 *   stands (`DrawProgress`); `participants_hash` then commits to the list.
 * - `_seed`: the secret seed (published as `seed` at the end); `_version`:
 *   what edits, rounds and privacy changes are conditional on.
 * - `rounds`: every round of the draw, `{round, winners, drawn_at}` (round 1
 *   the end, then each reroll), kept whole: each round is added by one write
 *   conditional on the version read, so a round is never lost or doubled.
 */
import { type Item, entity } from '#shared/db/entity.js';
import type { Condition } from '#shared/db/expression.js';
import { guildKey } from '#shared/modules/store.js';

/** One round of the draw: its number (1 the end, then each reroll), its winners in the order drawn, and when. */
export interface Round {
  round: number;
  winners: string[];
  drawn_at: string;
}

export interface Giveaway {
  id: number;
  guild_id: string;
  entry_id: string;
  channel_id: string;
  message_id: string | null;
  owner_id: string | null;
  prize: string;
  description: string | null;
  winner_count: number;
  status: 'running' | 'ended';
  end_time: string;
  delete_at: string | null;
  edited_with_results: boolean;
  /** Exact: every entrant's item is written with it in one request. */
  participant_count: number;
  /** The entrants of a giveaway stored before entrants had items of their own, until moved (`moveLegacyEntrants`); [] otherwise. */
  legacy: string[];
  /** The hash of the ordered entrant list the end drew from (`entrantsHash`), null before the draw and for giveaways drawn before it was kept. */
  participants_hash: string | null;
  _draw: DrawProgress | null;
  /** When the end closed entries (ISO); absent before, and on giveaways ended before it was kept. */
  _closed?: string;
  winners: string[];
  seed_hash: string;
  seed: string | null;
  created_at: string;
  rounds: Round[];
  _seed: string;
  _version: number;
  /**
   * Kept by the end's draw so rerolls need not read the whole list: the
   * entrant count it drew from, the places of each round's winners in the
   * sorted list, and the member at every MARK_EVERY-th place (`_marks[k]`
   * at place (k + 1) * MARK_EVERY - 1), where a read of any place starts.
   */
  _drawn_count?: number;
  _places?: number[][];
  _marks?: string[];
}

/** A reroll reads at most this many entrants a winner, from the mark before its place. */
export const MARK_EVERY = 10_000;

/**
 * Where the end's draw stands while it reads the entrants piece by piece:
 * `count` entrants closed in, `read` of them read so far up to member
 * `after`, the hash of those read, the list positions (0-based, numeric
 * order) the round's winners have in draw order, and the members found so
 * far at those positions.
 */
export interface DrawProgress {
  marks?: string[];
  count: number;
  read: number;
  after: string | null;
  hash: string;
  ranks: number[];
  found: Record<string, string>;
  /** When the last piece was read (round 1's `drawn_at`): the draw is done, and the end writes it with everything else in one write. */
  done?: string;
}

/**
 * Entries are open (enter, leave, edit) at `now`: running, not closed by the
 * end, and `end_time` still ahead of `now` (ISO 8601 in UTC, as `end_time` is
 * stored, so the strings compare as the times do). Past `end_time` they are
 * refused as after the end, whether or not the end has run yet.
 */
export const openAt = (now: string): Condition => ({ status: 'running', _closed: { exists: false }, end_time: { gt: now } });

/** Whether entries are open at `now` (epoch ms), as {@link openAt} decides it in the table. */
export const entriesOpen = (g: Pick<Giveaway, 'status' | '_closed' | 'end_time'>, now: number) =>
  g.status === 'running' && g._closed === undefined && g.end_time > new Date(now).toISOString();

/**
 * Giveaways stored before `rounds` kept each round's time held `_rounds`,
 * the winners of each round only: read as rounds drawn at the end time,
 * the closest time known. The next round written stores `rounds` whole.
 */
const roundsOf = (item: Item): Round[] =>
  (item.rounds as Round[] | undefined) ??
  ((item._rounds as string[][] | undefined) ?? []).map((winners, i) => ({ round: i + 1, winners, drawn_at: item.end_time as string }));

export function giveawayOf(item: Item): Giveaway {
  const { pk: _pk, sk: _sk, entity: _e, participants, participant_count, participants_hash, _draw, winners, _rounds, ...rest } = item;
  return {
    ...(rest as Omit<Giveaway, 'participant_count' | 'legacy' | 'participants_hash' | '_draw' | 'winners' | 'rounds'>),
    participant_count: Number(participant_count ?? 0),
    legacy: participants ? [...(participants as Set<string>)] : [],
    participants_hash: (participants_hash as string | undefined) ?? null,
    _draw: (_draw as DrawProgress | undefined) ?? null,
    winners: winners ? String(winners).split(',').filter(Boolean) : [],
    rounds: roundsOf(item),
  };
}

export const GiveawayEntity = entity({
  name: 'giveaway',
  prefix: 'GIVEAWAY#',
  pk: (f: { guildId: string }) => guildKey(f.guildId),
  sk: (f: { guildId: string; entryId: string }) => [f.entryId],
  parse: giveawayOf,
});

/** The attributes of a giveaway's item besides its key. */
function attributesOf(g: Giveaway): object {
  const { legacy: _legacy, _draw: _d, winners, ...rest } = g;
  return { ...rest, giveaway_id: g.entry_id, winners: winners.join(',') };
}

export const getGiveaway = (guildId: string, entryId: string) => GiveawayEntity.get({ guildId, entryId });

/** Every giveaway of the guild, newest first (privacy and settings delete: giveaways are few beside their entrants). */
export const listGiveaways = (guildId: string) => GiveawayEntity.query({ guildId }, { reverse: true });

export const insertGiveaway = (g: Giveaway) => GiveawayEntity.put({ guildId: g.guild_id, entryId: g.entry_id }, attributesOf(g), { ifAbsent: true });

/**
 * Sets some fields of a giveaway (never its entrants or count, which enters
 * and leaves change on their own; a field set to undefined is removed), if it is still in the state read: at
 * `expect.version` and/or `expect.status`. False when another change came
 * first, or it is gone.
 */
export function updateGiveaway(
  guildId: string,
  entryId: string,
  fields: Record<string, unknown>,
  expect: { version?: number; status?: Giveaway['status']; open?: string; count?: number } = {},
): Promise<boolean> {
  const count: Condition | undefined =
    expect.count === undefined
      ? undefined
      : // A giveaway nobody entered may never have had the count written.
        expect.count === 0
        ? { $or: [{ participant_count: { exists: false } }, { participant_count: 0 }] }
        : { participant_count: expect.count };
  return GiveawayEntity.update(
    { guildId, entryId },
    {
      set: fields,
      remove: Object.keys(fields).filter((name) => fields[name] === undefined),
      add: { _version: 1 },
      condition: {
        $and: [
          { pk: { exists: true }, _version: expect.version, status: expect.status },
          ...(expect.open === undefined ? [] : [openAt(expect.open)]),
          ...(count ? [count] : []),
        ],
      },
      returnValues: 'NONE',
    },
  );
}

/** Deletes the giveaway's item; what it held, or null when it was already gone. */
export const deleteGiveaway = (guildId: string, entryId: string) => GiveawayEntity.delete({ guildId, entryId }, { returnOld: true });

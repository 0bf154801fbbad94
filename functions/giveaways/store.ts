/**
 * Giveaways in the table: the only file issuing their commands. One item
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
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.js';
import { conditional } from '#shared/db/errors.js';
import { countAll, queryAll, queryPage } from '#shared/db/pagination.js';
import { entity } from '#shared/db/entity.js';
import { tableName } from '#shared/db/table.js';
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

type Item = Record<string, NativeAttributeValue>;

/**
 * Entries are open (enter, leave, edit): running, not closed by the end, and
 * `end_time` still ahead of `:now` (ISO 8601 in UTC, as `end_time` is
 * stored, so the strings compare as the times do). Past `end_time` they are
 * refused as after the end, whether or not the end has run yet.
 */
export const OPEN_CONDITION = '#s = :running AND attribute_not_exists(#closed) AND #end > :now';
export const OPEN_NAMES = { '#s': 'status', '#closed': '_closed', '#end': 'end_time' } as const;

/** Whether entries are open at `now` (epoch ms), as OPEN_CONDITION decides it in the table. */
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
  pk: (f: { guildId: string; entryId: string }) => guildKey(f.guildId),
  sk: (f) => [f.entryId],
  parse: giveawayOf,
});

function toItem(g: Giveaway): Item {
  const { legacy: _legacy, _draw: _d, winners, ...rest } = g;
  return GiveawayEntity.item({ guildId: g.guild_id, entryId: g.entry_id }, { ...rest, giveaway_id: g.entry_id, winners: winners.join(',') });
}

export async function getGiveaway(guildId: string, entryId: string): Promise<Giveaway | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: GiveawayEntity.key({ guildId, entryId }), ConsistentRead: true }));
  return out.Item ? giveawayOf(out.Item) : null;
}

const guildRange = (guildId: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': GiveawayEntity.prefix },
  ScanIndexForward: false,
  ConsistentRead: true,
});

/** Every giveaway of the guild, newest first (privacy and settings delete: giveaways are few beside their entrants). */
export async function listGiveaways(guildId: string): Promise<Giveaway[]> {
  return (await queryAll(guildRange(guildId))).map(giveawayOf);
}

/** How many giveaways the guild has. */
export const countGiveaways = (guildId: string) => countAll(guildRange(guildId));

/** One page of the guild's giveaways, newest first, read by key: from after giveaway `after` (a cursor's), else page `page`. */
export async function giveawayPage(guildId: string, page: number, pageSize: number, after: string | null) {
  const start = after === null ? null : GiveawayEntity.key({ guildId, entryId: after });
  const { items, lastKey } = await queryPage(guildRange(guildId), 'pk, sk', page, pageSize, start);
  return { giveaways: items.map(giveawayOf), last: lastKey ? (items.at(-1)?.entry_id as string) : null };
}

export function insertGiveaway(g: Giveaway): Promise<boolean> {
  return conditional(() => db().send(new PutCommand({ TableName: tableName(), Item: toItem(g), ConditionExpression: 'attribute_not_exists(pk)' })));
}

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
  const names: Record<string, string> = { '#v': '_version' };
  const values: Record<string, unknown> = { ':one': 1 };
  const sets: string[] = [];
  const removes: string[] = [];
  Object.entries(fields).forEach(([name, value], i) => {
    names[`#f${i}`] = name;
    if (value === undefined) return removes.push(`#f${i}`);
    values[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  });
  const conditions = ['attribute_exists(pk)'];
  if (expect.version !== undefined) {
    conditions.push('#v = :v');
    values[':v'] = expect.version;
  }
  if (expect.status !== undefined) {
    conditions.push('#s = :s');
    names['#s'] = 'status';
    values[':s'] = expect.status;
  }
  if (expect.open !== undefined) {
    conditions.push(OPEN_CONDITION);
    Object.assign(names, OPEN_NAMES);
    values[':now'] = expect.open;
    values[':running'] = 'running';
  }
  if (expect.count !== undefined) {
    // A giveaway nobody entered may never have had the count written.
    conditions.push(expect.count === 0 ? '(attribute_not_exists(participant_count) OR participant_count = :count)' : 'participant_count = :count');
    values[':count'] = expect.count;
  }
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: GiveawayEntity.key({ guildId, entryId }),
        UpdateExpression: `SET ${[...sets, '#v = #v + :one'].join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

export async function deleteGiveaway(guildId: string, entryId: string): Promise<Giveaway | null> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: GiveawayEntity.key({ guildId, entryId }), ReturnValues: 'ALL_OLD' }));
  return out.Attributes ? giveawayOf(out.Attributes) : null;
}

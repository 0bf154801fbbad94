/**
 * Giveaways in the table: the only file issuing their commands. One item
 * per giveaway in the guild's partition, `GIVEAWAY#<entry_id>` (entry IDs
 * start with the time, so the guild's giveaways list newest first), holding
 * the record and, apart from it:
 * - `participants`: the entrants, a string set. Entering and leaving are
 *   each one conditional update of this one item (`ADD`/`DELETE` with
 *   `contains` and `status = running`), so concurrent enters lose nothing
 *   and double nothing, and the draw reads one consistent item.
 * - `_seed`: the secret seed (published as `seed` at the end); `_version`:
 *   what edits, rounds and privacy changes are conditional on.
 * - `rounds`: every round of the draw, `{round, winners, drawn_at}` (round 1
 *   the end, then each reroll), kept whole: each round is added by one write
 *   conditional on the version read, so a round is never lost or doubled.
 * An item holds up to 400 KB, so a giveaway takes at most MAX_ENTRANTS.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.js';
import { conditional } from '#shared/db/errors.js';
import { queryAll } from '#shared/db/pagination.js';
import { entity } from '#shared/db/entity.js';
import { tableName } from '#shared/db/table.js';
import { guildKey } from '#shared/modules/store.js';

/** Entrants one giveaway item can hold with room to spare (400 KB per item). */
export const MAX_ENTRANTS = 15_000;

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
  entrants: string[];
  winners: string[];
  seed_hash: string;
  seed: string | null;
  created_at: string;
  rounds: Round[];
  _seed: string;
  _version: number;
}

type Item = Record<string, NativeAttributeValue>;

/**
 * Giveaways stored before `rounds` kept each round's time held `_rounds`,
 * the winners of each round only: read as rounds drawn at the end time,
 * the closest time known. The next round written stores `rounds` whole.
 */
const roundsOf = (item: Item): Round[] =>
  (item.rounds as Round[] | undefined) ??
  ((item._rounds as string[][] | undefined) ?? []).map((winners, i) => ({ round: i + 1, winners, drawn_at: item.end_time as string }));

export function giveawayOf(item: Item): Giveaway {
  const { pk: _pk, sk: _sk, entity: _e, participants, participant_count: _c, winners, _rounds, ...rest } = item;
  return {
    ...(rest as Omit<Giveaway, 'entrants' | 'winners' | 'rounds'>),
    entrants: participants ? [...(participants as Set<string>)] : [],
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
  const { entrants, winners, ...rest } = g;
  const item = GiveawayEntity.item(
    { guildId: g.guild_id, entryId: g.entry_id },
    { ...rest, giveaway_id: g.entry_id, winners: winners.join(','), participant_count: entrants.length },
  );
  if (entrants.length) item.participants = new Set(entrants);
  return item;
}

export async function getGiveaway(guildId: string, entryId: string): Promise<Giveaway | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: GiveawayEntity.key({ guildId, entryId }), ConsistentRead: true }));
  return out.Item ? giveawayOf(out.Item) : null;
}

export async function listGiveaways(guildId: string): Promise<Giveaway[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': GiveawayEntity.prefix },
    ScanIndexForward: false,
    ConsistentRead: true,
  });
  return items.map(giveawayOf);
}

export function insertGiveaway(g: Giveaway): Promise<boolean> {
  return conditional(() => db().send(new PutCommand({ TableName: tableName(), Item: toItem(g), ConditionExpression: 'attribute_not_exists(pk)' })));
}

/**
 * Sets some fields of a giveaway (never its entrants, which enters and
 * leaves change on their own), if it is still in the state read: at
 * `expect.version` and/or `expect.status`. False when another change came
 * first, or it is gone.
 */
export function updateGiveaway(
  guildId: string,
  entryId: string,
  fields: Record<string, unknown>,
  expect: { version?: number; status?: Giveaway['status'] } = {},
): Promise<boolean> {
  const names: Record<string, string> = { '#v': '_version' };
  const values: Record<string, unknown> = { ':one': 1 };
  const sets = Object.entries(fields).map(([name, value], i) => {
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
    return `#f${i} = :f${i}`;
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
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: GiveawayEntity.key({ guildId, entryId }),
        UpdateExpression: `SET ${[...sets, '#v = #v + :one'].join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

/** Why an enter or leave was refused: the giveaway's state, or the member's. */
export type EntryChange = 'done' | 'not-running' | 'already' | 'not-entered' | 'full' | 'gone';

/** One member enters: one conditional update. */
export async function addEntrant(guildId: string, entryId: string, memberId: string): Promise<EntryChange> {
  const done = await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: GiveawayEntity.key({ guildId, entryId }),
        UpdateExpression: 'ADD participants :m, participant_count :one',
        ConditionExpression: 'attribute_exists(pk) AND #s = :running AND NOT contains(participants, :id) AND participant_count < :max',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':m': new Set([memberId]), ':id': memberId, ':one': 1, ':running': 'running', ':max': MAX_ENTRANTS },
      }),
    ),
  );
  return done ? 'done' : whyRefused(guildId, entryId, memberId, true);
}

/** One member leaves: one conditional update. */
export async function removeEntrant(guildId: string, entryId: string, memberId: string): Promise<EntryChange> {
  const done = await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: GiveawayEntity.key({ guildId, entryId }),
        UpdateExpression: 'DELETE participants :m ADD participant_count :minus',
        ConditionExpression: 'attribute_exists(pk) AND #s = :running AND contains(participants, :id)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':m': new Set([memberId]), ':id': memberId, ':minus': -1, ':running': 'running' },
      }),
    ),
  );
  return done ? 'done' : whyRefused(guildId, entryId, memberId, false);
}

async function whyRefused(guildId: string, entryId: string, memberId: string, entering: boolean): Promise<EntryChange> {
  const g = await getGiveaway(guildId, entryId);
  if (!g) return 'gone';
  if (g.status !== 'running') return 'not-running';
  if (entering) return g.entrants.includes(memberId) ? 'already' : 'full';
  return 'not-entered';
}

/** Takes a member out of a giveaway's entrants, whatever its state (privacy). */
export async function dropEntrant(guildId: string, entryId: string, memberId: string): Promise<boolean> {
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: GiveawayEntity.key({ guildId, entryId }),
        UpdateExpression: 'DELETE participants :m ADD participant_count :minus',
        ConditionExpression: 'contains(participants, :id)',
        ExpressionAttributeValues: { ':m': new Set([memberId]), ':id': memberId, ':minus': -1 },
      }),
    ),
  );
}

export async function deleteGiveaway(guildId: string, entryId: string): Promise<Giveaway | null> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: GiveawayEntity.key({ guildId, entryId }), ReturnValues: 'ALL_OLD' }));
  return out.Attributes ? giveawayOf(out.Attributes) : null;
}

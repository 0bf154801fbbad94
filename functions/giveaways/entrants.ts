/**
 * A giveaway's entrants in the table (behaviour §12 and §15): one item per
 * entrant, in a partition of the giveaway's own (`GENTRANTS#<guild>#<entry>`),
 * its sort key the member ID padded to 20 digits, so a Query reads them in
 * numeric order, the order the draw sorts them in, a page at a time.
 *
 * Entering is one TransactWriteItems: the entrant's item put if absent and
 * the giveaway's `participant_count` raised if entries are open (running,
 * not closed by the end, before `end_time`), both or neither. That single atomic request keeps the two invariants (one entry a
 * member; entries only while running) and the exact count together, with no
 * read before the write; leaving is the same with a delete. A partition a
 * giveaway holds alone also keeps a rush of entrants off the guild's other
 * items. A giveaway's item holds up to 400 KB; these partitions have no
 * such limit, so a giveaway takes millions of entrants.
 *
 * Giveaways stored before held their entrants in the giveaway item's string
 * set `participants`; they keep working: an enter is refused for a member in
 * that set (a condition of the same transaction), a leave takes a member out
 * of it, and the set is moved into items before anything pages the list
 * (`moveLegacyEntrants`).
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteKeys, getKeys, keyOf, putItems } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { conditional } from '#shared/db/errors.js';
import { entity, partition } from '#shared/db/entity.js';
import { tableName } from '#shared/db/table.js';
import { transact } from '#shared/db/transact.js';
import { GiveawayEntity, OPEN_CONDITION, OPEN_NAMES, entriesOpen } from './store.js';

const entrantsKey = partition<[guildId: string, entryId: string]>('GENTRANTS#');
const ID_DIGITS = 20;
const padded = (memberId: string) => memberId.padStart(ID_DIGITS, '0');
const PREFIX = 'ENTRANT#';
const unpadded = (sk: string): string => sk.slice(PREFIX.length).replace(/^0+(?=\d)/, '');

export const EntrantEntity = entity({
  name: 'giveaway-entrant',
  prefix: PREFIX,
  pk: (f: { guildId: string; entryId: string; memberId: string }) => entrantsKey(f.guildId, f.entryId),
  sk: (f) => [padded(f.memberId)],
  parse: (item) => unpadded(String(item.sk)),
});

/** Why an enter or leave was refused: the giveaway's state, or the member's. */
export type EntryChange = 'done' | 'not-running' | 'already' | 'not-entered' | 'gone';

const BUSY = 'The giveaway is busy with other entries at this moment; try again shortly.';

/** While entries are open (OPEN_CONDITION) at `now`: its names and values, to go with the rest of a condition. */
const whileOpen = (now: string) => ({ condition: ` AND ${OPEN_CONDITION}`, names: OPEN_NAMES, values: { ':running': 'running', ':now': now } });

const countChange = (guildId: string, entryId: string, by: 1 | -1, memberId: string, whileRunning: boolean) => {
  const open = whileRunning ? whileOpen(new Date().toISOString()) : null;
  return {
    Update: {
      TableName: tableName(),
      Key: GiveawayEntity.key({ guildId, entryId }),
      UpdateExpression: 'ADD participant_count :by',
      // An entrant of the old layout is in the set: entering again is refused there.
      ConditionExpression: `attribute_exists(pk)${open?.condition ?? ''}${by === 1 ? ' AND NOT contains(participants, :id)' : ''}`,
      ...(open ? { ExpressionAttributeNames: open.names } : {}),
      ExpressionAttributeValues: { ':by': by, ...open?.values, ...(by === 1 ? { ':id': memberId } : {}) },
    },
  };
};

/** One member enters: one atomic conditional request, the entrant's item and the count. */
export async function addEntrant(guildId: string, entryId: string, memberId: string): Promise<EntryChange> {
  const failed = await transact(
    [
      {
        Put: {
          TableName: tableName(),
          Item: EntrantEntity.item({ guildId, entryId, memberId }, { entered_at: new Date().toISOString() }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      countChange(guildId, entryId, 1, memberId, true),
    ],
    BUSY,
  );
  if (failed === null) return 'done';
  return failed === 0 ? 'already' : whyRefused(guildId, entryId, true);
}

/** One member leaves: one atomic conditional request; a member of the old layout's set leaves it by one conditional update. */
export async function removeEntrant(guildId: string, entryId: string, memberId: string): Promise<EntryChange> {
  const failed = await transact(
    [
      { Delete: { TableName: tableName(), Key: EntrantEntity.key({ guildId, entryId, memberId }), ConditionExpression: 'attribute_exists(pk)' } },
      countChange(guildId, entryId, -1, memberId, true),
    ],
    BUSY,
  );
  if (failed === null) return 'done';
  if (failed === 0 && (await leaveLegacy(guildId, entryId, memberId, true))) return 'done';
  return whyRefused(guildId, entryId, false);
}

function leaveLegacy(guildId: string, entryId: string, memberId: string, whileRunning: boolean): Promise<boolean> {
  const open = whileRunning ? whileOpen(new Date().toISOString()) : null;
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: GiveawayEntity.key({ guildId, entryId }),
        UpdateExpression: 'DELETE participants :m ADD participant_count :minus',
        ConditionExpression: `contains(participants, :id)${open?.condition ?? ''}`,
        ...(open ? { ExpressionAttributeNames: open.names } : {}),
        ExpressionAttributeValues: { ':m': new Set([memberId]), ':id': memberId, ':minus': -1, ...open?.values },
      }),
    ),
  );
}

async function whyRefused(guildId: string, entryId: string, entering: boolean): Promise<EntryChange> {
  const [item] = await getKeys([GiveawayEntity.key({ guildId, entryId })]);
  if (!item) return 'gone';
  // Closed by the end or past end_time: refused as after the end, with the same words.
  if (!entriesOpen(GiveawayEntity.parse(item), Date.now())) return 'not-running';
  return entering ? 'already' : 'not-entered';
}

/** Takes a member out of a giveaway's entrants, whatever its state (privacy); true when they were one. */
export async function dropEntrant(guildId: string, entryId: string, memberId: string): Promise<boolean> {
  const failed = await transact(
    [
      { Delete: { TableName: tableName(), Key: EntrantEntity.key({ guildId, entryId, memberId }), ConditionExpression: 'attribute_exists(pk)' } },
      countChange(guildId, entryId, -1, memberId, false),
    ],
    BUSY,
  );
  return failed === null || leaveLegacy(guildId, entryId, memberId, false);
}

/** Which of these giveaways the member has entered (items only; the old layout's sets are read with the giveaway). */
export async function enteredOf(guildId: string, entryIds: readonly string[], memberId: string): Promise<Set<string>> {
  const found = await getKeys(entryIds.map((entryId) => EntrantEntity.key({ guildId, entryId, memberId })));
  const keys = new Set(found.map((item) => String(item.pk)));
  return new Set(entryIds.filter((entryId) => keys.has(entrantsKey(guildId, entryId))));
}

/** A page of entrants in numeric order: up to `limit` after `after` (a member ID; null from the start), and whether more follow. */
export async function entrantPage(
  guildId: string,
  entryId: string,
  limit: number,
  after: string | null,
): Promise<{ ids: string[]; last: string | null; more: boolean }> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: after === null ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk AND sk > :after',
      ExpressionAttributeValues: {
        ':pk': entrantsKey(guildId, entryId),
        ...(after === null ? { ':prefix': EntrantEntity.prefix } : { ':after': EntrantEntity.key({ guildId, entryId, memberId: after }).sk }),
      },
      ProjectionExpression: 'sk',
      // DynamoDB's Limit is a 32-bit count: "every entrant" sends none (DynamoDB Local answers a larger one with a 500, AWS refuses it).
      ...(limit <= MAX_QUERY_LIMIT ? { Limit: limit } : {}),
      ConsistentRead: true,
    }),
  );
  const ids = (out.Items ?? []).map((item) => EntrantEntity.parse(item));
  return { ids, last: ids.at(-1) ?? null, more: out.LastEvaluatedKey !== undefined };
}

/** The largest Limit a Query takes (a 32-bit integer). */
const MAX_QUERY_LIMIT = 2 ** 31 - 1;

/** Entrants in numeric order from `after`, `count` of them at most, reading pages of up to `pageLimit`. */
export async function entrantsFrom(guildId: string, entryId: string, after: string | null, count: number): Promise<string[]> {
  const ids: string[] = [];
  let from = after;
  while (ids.length < count) {
    const page = await entrantPage(guildId, entryId, count - ids.length, from);
    ids.push(...page.ids);
    if (!page.more || page.last === null) break;
    from = page.last;
  }
  return ids;
}

/** Every entrant in numeric order (a reroll's pool; a page at a time). */
export const allEntrants = (guildId: string, entryId: string) => entrantsFrom(guildId, entryId, null, Number.MAX_SAFE_INTEGER);

/**
 * Moves an old-layout giveaway's string set into entrant items, then drops
 * the set (conditional on the set as read, so a leave meanwhile is not
 * undone). Safe to repeat: the items are the same items.
 */
export async function moveLegacyEntrants(guildId: string, entryId: string, legacy: readonly string[]): Promise<boolean> {
  if (legacy.length === 0) return true;
  await putItems(legacy.map((memberId) => EntrantEntity.item({ guildId, entryId, memberId }, { entered_at: null })));
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: GiveawayEntity.key({ guildId, entryId }),
        UpdateExpression: 'REMOVE participants',
        ConditionExpression: 'size(participants) = :n',
        ExpressionAttributeValues: { ':n': legacy.length },
      }),
    ),
  );
}

/** Deletes up to `max` of a giveaway's entrant items; true when none are left. */
export async function purgeEntrants(guildId: string, entryId: string, max: number): Promise<boolean> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': entrantsKey(guildId, entryId) },
      ProjectionExpression: 'pk, sk',
      Limit: max,
    }),
  );
  await deleteKeys((out.Items ?? []).map(keyOf));
  return out.LastEvaluatedKey === undefined;
}

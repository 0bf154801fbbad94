/**
 * Counters in the table: one item per counter in the guild's partition,
 * `COUNTER#<counter_id>`, holding the record and, apart from it, the
 * counter's rename ledger (`_renames`: when its channel was last renamed)
 * and a `_version` every change is conditional on. A guild has at most 20
 * counters, so listing them is one consistent query of that prefix.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.js';
import { conditional, isConditionFailed } from '#shared/db/errors.js';
import { keyOf } from '#shared/db/batch.js';
import { queryAll } from '#shared/db/pagination.js';
import { tableName } from '#shared/db/table.js';
import { type Key, entity } from '#shared/db/entity.js';
import { guildKey } from '#shared/modules/store.js';

export interface Counter {
  id: number;
  guild_id: string;
  counter_id: string;
  channel_id: string;
  counter_type: number;
  format: string;
  role_id: string | null;
  goal_count: number | null;
  value: string | null;
  updated_at: string | null;
  /** When the channel was renamed, newest last (at most the rename budget's worth). */
  _renames: string[];
  /** The name the channel has, as last set by the service. */
  _name: string;
  /** The name a rename that had to wait will set. */
  _pending_name: string | null;
  /** No rename is tried before then (clock ms): the platform's `retry_after` of a 429, or the rename budget. */
  _rename_after?: number | null;
  _version: number;
}

export const CounterEntity = entity({
  name: 'stat_counter',
  prefix: 'COUNTER#',
  pk: (f: { guildId: string; counterId: string }) => guildKey(f.guildId),
  sk: (f) => [f.counterId],
  parse: (item: Record<string, NativeAttributeValue>): Counter => {
    const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
    return rest as Counter;
  },
});

/** The counter's API record (behaviour §11). */
export function counterRecord(counter: Counter) {
  const { _renames: _r, _name: _n, _pending_name: _p, _rename_after: _a, _version: _v, ...record } = counter;
  return record;
}

/** The guild's items whose sort key starts with `prefix`, read consistently. */
const guildItems = (guildId: string, prefix: string) =>
  queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': prefix },
    ConsistentRead: true,
  });

/** Counter items as counters, newest first. */
const newestFirst = (items: Record<string, NativeAttributeValue>[]) => items.map(CounterEntity.parse).sort((a, b) => b.id - a.id);

export async function listCounters(guildId: string): Promise<Counter[]> {
  return newestFirst(await guildItems(guildId, CounterEntity.prefix));
}

export async function getCounter(guildId: string, counterId: string): Promise<Counter | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: CounterEntity.key({ guildId, counterId }), ConsistentRead: true }));
  return out.Item ? CounterEntity.parse(out.Item) : null;
}

/** Writes a new counter (`read` null) or replaces the one read, if it is unchanged; false when another write came first. */
export async function writeCounter(counter: Counter, read: Counter | null): Promise<boolean> {
  const item = CounterEntity.item({ guildId: counter.guild_id, counterId: counter.counter_id }, { ...counter, _version: (read?._version ?? 0) + 1 });
  return conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: item,
        ConditionExpression: read ? '#v = :v' : 'attribute_not_exists(pk)',
        ExpressionAttributeNames: read ? { '#v': '_version' } : undefined,
        ExpressionAttributeValues: read ? { ':v': read._version } : undefined,
      }),
    ),
  );
}

/** Deletes a counter; answers what it held, or null when it was already gone. */
export async function deleteCounter(guildId: string, counterId: string): Promise<Counter | null> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: CounterEntity.key({ guildId, counterId }), ReturnValues: 'ALL_OLD' }));
  return out.Attributes ? CounterEntity.parse(out.Attributes) : null;
}

/**
 * How many counters a guild has, as one number under a condition: a create
 * takes a place only while fewer than `max` are taken, so creates racing
 * for the last place cannot both get it. Deletes give places back.
 */
const SlotsEntity = entity({
  name: 'stat_counter_slots',
  prefix: 'COUNTERSLOTS',
  pk: (f: { guildId: string }) => guildKey(f.guildId),
  parse: (item) => ({ taken: Number(item.taken ?? 0), takenAt: Number(item.taken_at ?? 0) }),
});
const slotsKey = (guildId: string) => SlotsEntity.key({ guildId });
/** The sort-key prefix of the counters (`COUNTER#`) and of their places (`COUNTERSLOTS`). */
const COUNTER_ITEMS = 'COUNTER';

export async function takeCounterSlot(guildId: string, max: number): Promise<boolean> {
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: slotsKey(guildId),
        UpdateExpression: 'ADD #n :one SET entity = :entity, taken_at = :now',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
        ExpressionAttributeNames: { '#n': 'taken' },
        ExpressionAttributeValues: { ':one': 1, ':max': max, ':entity': SlotsEntity.name, ':now': Date.now() },
      }),
    ),
  );
}

export async function giveCounterSlots(guildId: string, count: number): Promise<void> {
  if (count <= 0) return;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: slotsKey(guildId),
        UpdateExpression: 'ADD #n :minus',
        ConditionExpression: '#n >= :count',
        ExpressionAttributeNames: { '#n': 'taken' },
        ExpressionAttributeValues: { ':minus': -count, ':count': count },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

/** Sets the places taken to what the counters really are, if still `seen` (repairs a count a crash left too high). */
export async function repairCounterSlots(guildId: string, seen: number, actual: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: slotsKey(guildId),
        UpdateExpression: 'SET #n = :actual',
        ConditionExpression: '#n = :seen',
        ExpressionAttributeNames: { '#n': 'taken' },
        ExpressionAttributeValues: { ':actual': actual, ':seen': seen },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

/** Places taken, and when the last one was taken (epoch ms). */
export async function countersTaken(guildId: string): Promise<{ taken: number; takenAt: number }> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: slotsKey(guildId), ConsistentRead: true }));
  return SlotsEntity.parse(out.Item ?? {});
}

/** Every guild with counters has an item in one partition, so a refresh of all guilds needs no scan. */
const GUILDS_PARTITION = 'COUNTERGUILDS';
const GuildWithCountersEntity = entity({
  name: 'stat_counter_guild',
  prefix: '',
  pk: (_: { guildId: string }) => GUILDS_PARTITION,
  sk: (f) => [f.guildId],
  parse: (item) => String(item.sk),
});
const guildWithCountersKey = (guildId: string) => GuildWithCountersEntity.key({ guildId });

export async function noteGuildWithCounters(guildId: string): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: GuildWithCountersEntity.item({ guildId }, {}) }));
}

export async function forgetGuildWithCounters(guildId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: guildWithCountersKey(guildId) }));
}

export async function guildsWithCounters(): Promise<string[]> {
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': GUILDS_PARTITION }, ConsistentRead: true });
  return items.map(GuildWithCountersEntity.parse);
}

/**
 * The guild's counters and the keys of every item they keep (settings
 * delete): the counters and their places, one query of their prefix,
 * and the guild's note in the refresh list. A guild that never took a place
 * has none of them, so nothing is written for it. A note a crash left
 * behind is dropped by the refresh, which finds no counters.
 */
export async function counterData(guildId: string): Promise<{ counters: Counter[]; keys: Key[] }> {
  const items = await guildItems(guildId, COUNTER_ITEMS);
  const counters = newestFirst(items.filter(CounterEntity.holds));
  const keys = items.map(keyOf);
  return { counters, keys: keys.length ? [...keys, guildWithCountersKey(guildId)] : [] };
}

/**
 * Counters in the table: one item per counter in the guild's partition,
 * `COUNTER#<counter_id>`, holding the record and, apart from it, the
 * counter's rename ledger (`_renames`: when its channel was last renamed)
 * and a `_version` every change is conditional on. A guild has at most 20
 * counters, so listing them is one consistent query of that prefix.
 */
import { DeleteCommand, GetCommand, PutCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { deleteKeys } from '../../shared/db/batch.js';
import { db } from '../../shared/db/client.js';
import { isConditionFailed } from '../../shared/db/errors.js';
import { queryAll } from '../../shared/db/pagination.js';
import { tableName } from '../../shared/db/table.js';
import { guildKey } from '../../shared/modules/store.js';

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
  /** The name a rename that had to wait will set. */
  _pending_name: string | null;
  _version: number;
}

const PREFIX = 'COUNTER#';
const counterKey = (guildId: string, counterId: string) => ({ pk: guildKey(guildId), sk: `${PREFIX}${counterId}` });

const fromItem = (item: Record<string, NativeAttributeValue>): Counter => {
  const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
  return rest as Counter;
};

/** The counter's API record (contract 11). */
export function counterRecord(counter: Counter) {
  const { _renames: _r, _pending_name: _p, _version: _v, ...record } = counter;
  return record;
}

export async function listCounters(guildId: string): Promise<Counter[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': PREFIX },
    ConsistentRead: true,
  });
  return items.map(fromItem).sort((a, b) => b.id - a.id);
}

export async function getCounter(guildId: string, counterId: string): Promise<Counter | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: counterKey(guildId, counterId), ConsistentRead: true }));
  return out.Item ? fromItem(out.Item) : null;
}

/** Writes a new counter (`read` null) or replaces the one read, if it is unchanged; false when another write came first. */
export async function writeCounter(counter: Counter, read: Counter | null): Promise<boolean> {
  const item = { ...counterKey(counter.guild_id, counter.counter_id), entity: 'stat_counter', ...counter, _version: (read?._version ?? 0) + 1 };
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: item,
        ConditionExpression: read ? '#v = :v' : 'attribute_not_exists(pk)',
        ExpressionAttributeNames: read ? { '#v': '_version' } : undefined,
        ExpressionAttributeValues: read ? { ':v': read._version } : undefined,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** Deletes a counter; answers what it held, or null when it was already gone. */
export async function deleteCounter(guildId: string, counterId: string): Promise<Counter | null> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: counterKey(guildId, counterId), ReturnValues: 'ALL_OLD' }));
  return out.Attributes ? fromItem(out.Attributes) : null;
}

export function deleteCounterItems(counters: Pick<Counter, 'guild_id' | 'counter_id'>[]): Promise<void> {
  return deleteKeys(counters.map((c) => counterKey(c.guild_id, c.counter_id)));
}

import { setTimeout as delay } from 'node:timers/promises';
import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { databaseFailed } from '../errors.js';
import { db } from './client.js';
import type { Item, Key } from './item.js';
import { tableName } from './table.js';

/**
 * Batch reads and writes. DynamoDB may leave part of a batch unprocessed
 * under load; these ask again for the rest with a growing pause, and answer
 * 503 rather than silently dropping what the table kept refusing.
 */

const WRITE_BATCH = 25;
const GET_BATCH = 100;
/** Batches of one large delete sent side by side: a guild's thousands of records go in seconds, not minutes. */
const PARALLEL_BATCHES = 8;
const ATTEMPTS = 6;

async function untilDone<T>(pending: T[], send: (batch: T[]) => Promise<T[]>, what: string): Promise<void> {
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt >= ATTEMPTS) throw databaseFailed(`The table kept refusing part of a batch ${what}; try again shortly.`);
    if (attempt > 0) await delay(25 * 2 ** attempt);
    pending = await send(pending);
  }
}

/** The table key of an item read from it. */
export const keyOf = (item: Item): Key => ({ pk: String(item.pk), sk: String(item.sk) });

type WriteRequest = { DeleteRequest: { Key: Key } } | { PutRequest: { Item: Item } };

/** Sends these writes in batches of 25, up to PARALLEL_BATCHES batches at once. */
async function writeAll(requests: readonly WriteRequest[], what: string): Promise<void> {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += WRITE_BATCH) batches.push(requests.slice(i, i + WRITE_BATCH));
  for (let i = 0; i < batches.length; i += PARALLEL_BATCHES) {
    await Promise.all(
      batches.slice(i, i + PARALLEL_BATCHES).map((batch) =>
        untilDone(
          batch,
          async (pending) => {
            const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
            return (out.UnprocessedItems?.[tableName()] ?? []) as WriteRequest[];
          },
          what,
        ),
      ),
    );
  }
}

/** Deletes the items of these keys, unconditionally: up to PARALLEL_BATCHES batches at once. */
export const deleteKeys = (keys: readonly Key[]): Promise<void> =>
  writeAll(
    keys.map((Key) => ({ DeleteRequest: { Key } })),
    'delete',
  );

/** Writes these items whole, unconditionally (items whose every copy is the same, so a repeat changes nothing): `Entity.putMany`'s batches, and seeds in tests and the bench. */
export const putItems = (items: readonly Item[]): Promise<void> =>
  writeAll(
    items.map((Item) => ({ PutRequest: { Item } })),
    'put',
  );

/** Reads the items of these keys, consistently; items that do not exist are absent from the answer (`Entity.getMany` parses them in the order asked). */
export async function getKeys(keys: readonly Key[]): Promise<Item[]> {
  const found: Item[] = [];
  for (let i = 0; i < keys.length; i += GET_BATCH) {
    await untilDone(
      keys.slice(i, i + GET_BATCH),
      async (batch) => {
        const out = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: batch, ConsistentRead: true } } }));
        found.push(...((out.Responses?.[tableName()] as Item[] | undefined) ?? []));
        return (out.UnprocessedKeys?.[tableName()]?.Keys as Key[] | undefined) ?? [];
      },
      'read',
    );
  }
  return found;
}

/**
 * Reads named keys in one consistent batch (up to 100) and answers each
 * name's item, or null: `getNamed({ state: ..., panel: ... })`. For a use
 * case that decides on several items it can name up front.
 */
export async function getNamed<K extends string>(keys: Record<K, Key>): Promise<Record<K, Item | null>> {
  const found = await getKeys(Object.values(keys));
  const at = (key: Key) => found.find((item) => item.pk === key.pk && item.sk === key.sk) ?? null;
  return Object.fromEntries(Object.entries(keys).map(([name, key]) => [name, at(key as Key)])) as Record<K, Item | null>;
}

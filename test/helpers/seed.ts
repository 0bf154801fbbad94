/**
 * Many items at once, as the service would have stored them: 25 a batch
 * write and eight batches at a time, so a test or the bench makes a guild
 * with thousands of records in seconds.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';

export async function putAll(items: Record<string, unknown>[]): Promise<void> {
  const batches: (typeof items)[] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  for (let i = 0; i < batches.length; i += 8) {
    await Promise.all(
      batches.slice(i, i + 8).map(async (batch) => {
        let pending = batch.map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
          pending = (out.UnprocessedItems?.[tableName()] as typeof pending | undefined) ?? [];
        }
      }),
    );
  }
}

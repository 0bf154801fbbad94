import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.js';
import { tableName } from './table.js';

/**
 * Every record has `id`: a positive integer unique within its record type
 * (contract 3.4). A counter item per type would be one hot key, so each type
 * has SHARDS counters and a shard's n-th value is (n - 1) * SHARDS + shard + 1:
 * unique, positive, and far below 2^53.
 */
const SHARDS = 8;

export async function nextRecordId(recordType: string): Promise<number> {
  const shard = Math.floor(Math.random() * SHARDS);
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `SEQ#${recordType}`, sk: `SHARD#${shard}` },
      UpdateExpression: 'ADD #n :one SET entity = :entity',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':one': 1, ':entity': 'sequence' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const n = Number(out.Attributes?.n);
  return (n - 1) * SHARDS + shard + 1;
}

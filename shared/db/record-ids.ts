import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.js';
import { entity, partition } from './entity.js';
import { tableName } from './table.js';

/**
 * Every record has `id`: a positive integer unique within its record type
 * (behaviour §3.4). A counter item per type would be one hot key, so each type
 * has SHARDS counters and a shard's n-th value is (n - 1) * SHARDS + shard + 1:
 * unique, positive, and far below 2^53.
 */
const SHARDS = 8;

const sequencePartition = partition<[recordType: string]>('SEQ#');
/** One counter of a record type: its partition holds the type's SHARDS counters, `n` the ids handed out. */
const SequenceEntity = entity({
  name: 'sequence',
  prefix: 'SHARD#',
  pk: (f: { recordType: string; shard: number }) => sequencePartition(f.recordType),
  sk: (f) => [String(f.shard)],
  parse: (item) => Number(item.n),
});

export async function nextRecordId(recordType: string): Promise<number> {
  const shard = Math.floor(Math.random() * SHARDS);
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: SequenceEntity.key({ recordType, shard }),
      UpdateExpression: 'ADD #n :one SET entity = :entity',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':one': 1, ':entity': SequenceEntity.name },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const n = SequenceEntity.parse(out.Attributes ?? {});
  return (n - 1) * SHARDS + shard + 1;
}

/**
 * {@link nextRecordId} started now and awaited when the record is built, so
 * its counter write goes out beside the create's checks instead of after
 * them (one request less in turn). A create refused meanwhile leaves its id
 * unused, as ids need not be dense; a failed write is not left unhandled,
 * and throws where the id is awaited. `fromBlock`: from this process's
 * block ({@link nextRecordIdFromBlock}), for records made often.
 */
export function recordIdAhead(recordType: string, fromBlock = false): Promise<number> {
  const id = fromBlock ? nextRecordIdFromBlock(recordType) : nextRecordId(recordType);
  id.catch(() => undefined);
  return id;
}

/** Blocks of ids this process has reserved and not yet handed out, per record type. */
const reserved = new Map<string, { shard: number; next: number; last: number }>();
/** Reservations under way, so callers at once share one instead of each taking a block. */
const reserving = new Map<string, Promise<void>>();

async function reserveBlock(recordType: string, blockSize: number): Promise<void> {
  const shard = Math.floor(Math.random() * SHARDS);
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: SequenceEntity.key({ recordType, shard }),
      UpdateExpression: 'ADD #n :block SET entity = :entity',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':block': blockSize, ':entity': SequenceEntity.name },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = SequenceEntity.parse(out.Attributes ?? {});
  reserved.set(recordType, { shard, next: last - blockSize + 1, last });
}

/**
 * The same ids as {@link nextRecordId}, reserved `blockSize` at a time: one
 * counter write serves `blockSize` records of this process, so a record
 * written on every message costs one write of its own, not two. Ids stay
 * unique; a process that ends leaves the rest of its block unused (ids need
 * not be dense).
 */
export async function nextRecordIdFromBlock(recordType: string, blockSize = 100): Promise<number> {
  for (;;) {
    const block = reserved.get(recordType);
    if (block && block.next <= block.last) {
      const n = block.next++;
      return (n - 1) * SHARDS + block.shard + 1;
    }
    let pending = reserving.get(recordType);
    if (!pending) {
      pending = reserveBlock(recordType, blockSize).finally(() => reserving.delete(recordType));
      reserving.set(recordType, pending);
    }
    await pending;
  }
}

/**
 * Where due work lives in the table. One item per (job, key): its own
 * partition, so writes to different items never share a key. The generic
 * index `gsi1` finds what falls due: partition `DUEIDX#<job>#<shard>`, sort
 * key the time (epoch ms, zero-padded) at which the producer must look at the
 * item next: its due time while pending, the end of its lease while
 * dispatched or claimed. An item out of the index (dead) is never looked at.
 */

export const DUE_ENTITY = 'due_work';

/** The primary key of one piece of due work. */
export const dueItemKey = (job: string, key: string) => ({ pk: `DUE#${job}#${key}`, sk: 'DUE' });

/** The due-index partition of a shard of a job. */
export const dueIndexPartition = (job: string, shard: number) => `DUEIDX#${job}#${shard}`;

/** The due-index sort key of a time: epoch milliseconds, zero-padded so strings sort as numbers. */
export const dueIndexTime = (ms: number) => String(Math.max(0, Math.floor(ms))).padStart(15, '0');

/** The shard of a key: a stable FNV-1a hash, so an item always lands in the same partition. */
export function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}

/**
 * Where due work lives in the table. One item per (job, key): its own
 * partition, so writes to different items never share a key. The generic
 * index `gsi1` finds what falls due: partition `DUEIDX#<job>#<shard>`, sort
 * key the time (epoch ms, zero-padded) at which the producer must look at the
 * item next: its due time while pending, the end of its lease while
 * dispatched or claimed. A parked (dead) item leaves its job's partitions
 * for {@link PARKED_INDEX_PARTITION}, which no producer reads: the operator's
 * list of parked work.
 *
 * A job whose due items are written often spreads them over `SPREAD`
 * shards, so they do not share one hot index partition; every other job
 * keeps them in shard 0, so its producer reads one partition a run.
 */
import { type Key, partition } from '../db/entity.js';

export const DUE_ENTITY = 'due_work';

const duePartition = partition<[job: string, key: string]>('DUE#');
/** The primary key of one piece of due work. */
export const dueItemKey = (job: string, key: string): Key => ({ pk: duePartition(job, key), sk: 'DUE' });

const dueIndex = partition<[job: string, shard: string]>('DUEIDX#');
/** The due-index partition of a shard of a job. */
export const dueIndexPartition = (job: string, shard: number) => dueIndex(job, String(shard));

/**
 * The index partition of parked work of every job, sorted by the time it
 * was parked (`dueIndexTime`). Parking is rare (work that failed five
 * times), so one partition holds it all.
 */
export const PARKED_INDEX_PARTITION = 'DUEPARKED';

/** Shards of a job that spreads; also every shard a job's items may have been left in by a build that spread all jobs. */
export const SPREAD = 4;

/**
 * The jobs that spread: each writes its index many times a second at scale
 * (a refresh per poll or giveaway each window, a feed polled each interval,
 * a counter refresh per guild, a timed role per member who joins, an
 * announcement's units per item and channels). Closing, ending and deleting
 * happen once per record; a catch-up once an hour. Each module names its
 * own with {@link spreadingJob} where it writes the job's ID, so shared
 * code knows no job by name.
 */
const SPREAD_JOBS = new Set<string>();

/**
 * Declares a job whose due items spread over {@link SPREAD} shards, and
 * answers its ID. Call it where the ID is written (the module's
 * `jobs.ts`): every function naming the job has then loaded the
 * declaration, since it imports the ID from there.
 */
export function spreadingJob<const J extends string>(job: J): J {
  SPREAD_JOBS.add(job);
  return job;
}

/** How many shards of the index a job's items use. */
export const shardsOf = (job: string): number => (SPREAD_JOBS.has(job) ? SPREAD : 1);

/**
 * What each scheduled run of a job's producer is given: a job that spreads
 * gets one run per shard (`{ shard }`), at once, so each run makes one Query
 * and handles its own shard's items; any other job, one run with no shard.
 */
export const producerInputs = (job: string): { shard?: number }[] =>
  shardsOf(job) === 1 ? [{}] : Array.from({ length: shardsOf(job) }, (_, shard) => ({ shard }));

/** The index partition an item of a job belongs in. */
export const dueIndexPartitionOf = (job: string, key: string) => dueIndexPartition(job, shardOf(key, shardsOf(job)));

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

/** The guild a job's work is for: the key's first part when it is a snowflake (`<guild>#<record>`), else the payload's `guild_id`. */
export function guildOf(key: string, payload: Record<string, unknown> | undefined): string | null {
  const first = /^(\d{1,20})(?:#|$)/.exec(key);
  if (first) return first[1]!;
  return typeof payload?.guild_id === 'string' ? payload.guild_id : null;
}

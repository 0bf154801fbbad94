import { entity } from '../db/entity.js';
import type { Changes, Condition } from '../db/expression.js';
import { DUE_ENTITY, PARKED_INDEX_PARTITION, dueIndexPartition, dueIndexPartitionOf, dueIndexTime, dueItemKey } from './keys.js';

/**
 * The scheduler's DynamoDB access: every state change of a due item is one
 * conditional write on that item (no transactions needed, so dynalite
 * behaves like DynamoDB).
 *
 * Phases: `pending` (in the index at its due time), `dispatched` (a message
 * is on its way; in the index at the end of its lease), `claimed` (a consumer
 * is working; in the index at the end of its claim), `retrying` (handling
 * failed, the queue will deliver again; in the index after that), `dead`
 * (parked: failed on its last delivery; out of its job's index partitions,
 * listed in the parked partition by the time it was parked, kept 14 days).
 *
 * Every write that places an item in the index also names its partition
 * (`dueIndexPartitionOf`), so an item an earlier layout left in another
 * shard moves to its own at its next change.
 */
export type Phase = 'pending' | 'dispatched' | 'claimed' | 'retrying' | 'dead';

export interface DueItem {
  job: string;
  work_key: string;
  due_at: number;
  payload: Record<string, unknown>;
  /** Bumped by every schedule or request, so a consumer can tell that new work arrived while it ran. */
  gen: number;
  dispatches: number;
  phase: Phase;
  gsi1pk?: string;
  gsi1sk?: string;
  claim_id?: string;
  claim_until?: number;
  /** `gen` when the running claim was taken: a larger `gen` means work was requested since, and the run repeats. */
  claim_gen?: number;
  failures?: number;
  last_error?: string;
  /** When it was parked (epoch ms), while dead. */
  parked_at?: number;
  /** Work was asked for when a run might already have been starting: one more run follows the next. */
  follow?: boolean;
}

/** A piece of due work of a job, by its key: one item in a partition of its own (`keys.ts`), in the due index under `gsi1pk`/`gsi1sk`. */
export const DueEntity = entity({
  name: DUE_ENTITY,
  prefix: 'DUE',
  pk: (f: { job: string; key: string }) => dueItemKey(f.job, f.key).pk,
  parse: (item): DueItem => item as DueItem,
  indexes: { gsi1: { pk: (f: { partition: string }) => f.partition, prefix: '' } },
});

/** Dead items stay this long for inspection (as long as a dead-letter queue keeps messages). */
const DEAD_RETENTION_SECONDS = 14 * 24 * 3600;

/** One conditional write on the item: the item after it, or null when the condition did not hold. */
const update = (job: string, key: string, change: Changes & { condition?: Condition }): Promise<DueItem | null> => DueEntity.update({ job, key }, change);

/**
 * Where a write leaves an item: pending in the index at its due time, or,
 * given `leaseUntil` (the caller sends the message itself right after the
 * write), dispatched and in the index at the end of that lease, as
 * `markDispatched` leaves it. One write instead of two for work due soon.
 */
function placement(dueAt: number, leaseUntil: number | undefined, now: number) {
  return leaseUntil === undefined
    ? { placed: { phase: 'pending', gsi1sk: dueIndexTime(dueAt), dispatches: 0 }, sent: {} }
    : { placed: { phase: 'dispatched', gsi1sk: dueIndexTime(leaseUntil), dispatches: 1 }, sent: { dispatched_at: now } };
}

/** What every schedule or request writes: the work, its index partition, the times, and a new `gen`. */
function requested(job: string, key: string, now: number, payload: Record<string, unknown>) {
  const at = new Date(now).toISOString();
  return {
    set: { job, work_key: key, payload, gsi1pk: dueIndexPartitionOf(job, key), updated_at: at },
    setIfAbsent: { created_at: at },
    add: { gen: 1 },
  };
}

/** Sets (or moves) the due time of an item and makes it pending (or dispatched, given `leaseUntil`); answers the item. */
export async function putDue(job: string, key: string, dueAt: number, payload: Record<string, unknown>, now: number, leaseUntil?: number): Promise<DueItem> {
  const { placed, sent } = placement(dueAt, leaseUntil, now);
  const base = requested(job, key, now, payload);
  const item = await update(job, key, { ...base, set: { ...base.set, due_at: dueAt, ...placed, ...sent } });
  return item!;
}

/**
 * Asks for work at `dueAt` unless some is already waiting (which keeps its
 * earlier time and phase): many requests within a window become one run.
 * A new item is pending, or dispatched given `leaseUntil`. Answers the item;
 * `gen` 1 means this request created it.
 */
export async function requestDue(
  job: string,
  key: string,
  dueAt: number,
  payload: Record<string, unknown>,
  now: number,
  leaseUntil?: number,
): Promise<DueItem> {
  const { placed, sent } = placement(dueAt, leaseUntil, now);
  const base = requested(job, key, now, payload);
  const item = await update(job, key, { ...base, setIfAbsent: { due_at: dueAt, ...placed, ...base.setIfAbsent, ...sent } });
  return item!;
}

/**
 * Asks for one more run after the next, on an item that waits for its run
 * (pending or dispatched): for work saved when that run may already be
 * starting. Answers the item, or null when it is not waiting any more.
 */
export async function requestFollowUp(job: string, key: string, now: number): Promise<DueItem | null> {
  return update(job, key, {
    set: { follow: true, updated_at: new Date(now).toISOString() },
    add: { gen: 1 },
    condition: { $or: [{ phase: 'pending' }, { phase: 'dispatched' }] },
  });
}

/** Brings a dead item back to pending at `dueAt` (a new request for work that had failed for good). */
export async function reviveDue(job: string, key: string, dueAt: number, now: number): Promise<DueItem | null> {
  return update(job, key, {
    set: {
      phase: 'pending',
      due_at: dueAt,
      gsi1pk: dueIndexPartitionOf(job, key),
      gsi1sk: dueIndexTime(dueAt),
      dispatches: 0,
      updated_at: new Date(now).toISOString(),
    },
    remove: ['expires_at', 'parked_at'],
    condition: { phase: 'dead' },
  });
}

export async function deleteDue(job: string, key: string): Promise<void> {
  await DueEntity.delete({ job, key });
}

export const getDue = (job: string, key: string): Promise<DueItem | null> => DueEntity.get({ job, key });

/**
 * Marks an item as sent, provided it is still where the caller saw it in the
 * index (so two producers never both send it); the producer will look again
 * at `leaseUntil`. Answers the item, or null when someone else moved it.
 */
export async function markDispatched(job: string, key: string, seenIndexTime: string, leaseUntil: number, now: number): Promise<DueItem | null> {
  return update(job, key, {
    set: { phase: 'dispatched', gsi1pk: dueIndexPartitionOf(job, key), gsi1sk: dueIndexTime(leaseUntil), dispatched_at: now },
    add: { dispatches: 1 },
    condition: { pk: { exists: true }, gsi1sk: seenIndexTime },
  });
}

/**
 * A consumer takes the item for itself until `claimUntil`: only when it is
 * due and nobody else holds a live claim. Answers the item, or null.
 */
export async function claimDue(job: string, key: string, claimId: string, claimUntil: number, now: number, toleranceMs: number): Promise<DueItem | null> {
  return update(job, key, {
    set: { claim_id: claimId, claim_until: claimUntil, phase: 'claimed', gsi1pk: dueIndexPartitionOf(job, key), gsi1sk: dueIndexTime(claimUntil) },
    copy: { claim_gen: 'gen' },
    condition: {
      pk: { exists: true },
      due_at: { le: now + toleranceMs },
      $or: [{ claim_until: { exists: false } }, { claim_until: { lt: now } }],
    },
  });
}

/** Deletes the item when this claim still holds it, no new work arrived (`gen` unchanged) and no follow-up was asked for. */
export function completeDue(job: string, key: string, claimId: string, gen: number): Promise<boolean> {
  return DueEntity.delete({ job, key }, { condition: { claim_id: claimId, gen, follow: { exists: false } } });
}

/**
 * Gives the item back as pending at `dueAt` (or dispatched, given
 * `leaseUntil`): new work arrived meanwhile, or the handler asked to run
 * again. With `notMovedLater`, only if its due time is not later than
 * `dueAt` (nobody moved it past that meanwhile). Answers the item, or null.
 */
export async function releaseDue(
  job: string,
  key: string,
  claimId: string,
  dueAt: number,
  now: number,
  leaseUntil?: number,
  notMovedLater = false,
): Promise<DueItem | null> {
  const { placed, sent } = placement(dueAt, leaseUntil, now);
  return update(job, key, {
    set: { due_at: dueAt, gsi1pk: dueIndexPartitionOf(job, key), ...placed, updated_at: new Date(now).toISOString(), ...sent },
    remove: ['claim_id', 'claim_until', 'follow'],
    condition: notMovedLater ? { claim_id: claimId, due_at: { le: dueAt } } : { claim_id: claimId },
  });
}

/** Handling failed and the queue will deliver again: no claim, and the producer keeps away until `lookAgainAt`. */
export async function failDue(job: string, key: string, claimId: string, lookAgainAt: number, reason: string): Promise<DueItem | null> {
  return update(job, key, {
    set: { phase: 'retrying', gsi1pk: dueIndexPartitionOf(job, key), gsi1sk: dueIndexTime(lookAgainAt), last_error: reason },
    remove: ['claim_id', 'claim_until'],
    add: { failures: 1 },
    condition: { claim_id: claimId },
  });
}

/**
 * Handling failed on the last delivery (the message goes to the dead-letter
 * queue), or the item was sent too often: out of its job's index for good,
 * into the parked partition until an operator replays it (`reviveDue`).
 */
export async function parkDue(job: string, key: string, claimId: string | null, reason: string, now: number): Promise<DueItem | null> {
  return update(job, key, {
    set: {
      phase: 'dead',
      last_error: reason,
      expires_at: Math.floor(now / 1000) + DEAD_RETENTION_SECONDS,
      parked_at: now,
      gsi1pk: PARKED_INDEX_PARTITION,
      gsi1sk: dueIndexTime(now),
    },
    remove: ['claim_id', 'claim_until'],
    add: { failures: 1 },
    condition: claimId ? { claim_id: claimId } : { pk: { exists: true } },
  });
}

/** Puts an item in its own index partition, provided it is still where the caller saw it; answers it, or null. */
export async function moveDue(job: string, key: string, seenIndexTime: string): Promise<DueItem | null> {
  return update(job, key, { set: { gsi1pk: dueIndexPartitionOf(job, key) }, condition: { pk: { exists: true }, gsi1sk: seenIndexTime } });
}

/** Every parked item, the latest parked first. */
export function queryParked(): Promise<DueItem[]> {
  return DueEntity.index('gsi1').query({ partition: PARKED_INDEX_PARTITION }, { reverse: true });
}

/** Items of one shard whose index time is at or before `until`, earliest first, at most `limit`. */
export function queryDue(job: string, shard: number, until: number, limit: number): Promise<DueItem[]> {
  return DueEntity.index('gsi1').query({ partition: dueIndexPartition(job, shard) }, { to: dueIndexTime(until), limit });
}

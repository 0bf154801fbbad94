import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.js';
import { isConditionFailed } from '../db/errors.js';
import { queryAll } from '../db/pagination.js';
import { entity } from '../db/entity.js';
import { TABLE, tableName } from '../db/table.js';
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

/** A piece of due work of a job, by its key: one item in a partition of its own (`keys.ts`). */
export const DueEntity = entity({
  name: DUE_ENTITY,
  prefix: 'DUE',
  pk: (f: { job: string; key: string }) => dueItemKey(f.job, f.key).pk,
  parse: (item): DueItem => item as DueItem,
});

/** The generic index due items use (`gsi1pk`/`gsi1sk`). */
const DUE_INDEX = TABLE.indexes[0];

/** Dead items stay this long for inspection (as long as a dead-letter queue keeps messages). */
const DEAD_RETENTION_SECONDS = 14 * 24 * 3600;

const NAMES = {
  '#job': 'job',
  '#wk': 'work_key',
  '#due': 'due_at',
  '#payload': 'payload',
  '#gen': 'gen',
  '#dispatches': 'dispatches',
  '#phase': 'phase',
  '#ipk': 'gsi1pk',
  '#isk': 'gsi1sk',
  '#entity': 'entity',
  '#created': 'created_at',
  '#updated': 'updated_at',
};

/** Only the names an expression uses: DynamoDB refuses unused ones. */
function names(expression: string): Record<string, string> {
  const used: Record<string, string> = {};
  for (const match of expression.matchAll(/#[a-z_]+/g)) {
    const name = match[0];
    const attribute = (NAMES as Record<string, string>)[name] ?? name.slice(1);
    used[name] = attribute;
  }
  return used;
}

async function update(job: string, key: string, expression: string, values: Record<string, unknown>, condition?: string): Promise<DueItem | null> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: dueItemKey(job, key),
        UpdateExpression: expression,
        ConditionExpression: condition,
        ExpressionAttributeNames: names(`${expression} ${condition ?? ''}`),
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes as DueItem;
  } catch (error) {
    if (isConditionFailed(error)) return null;
    throw error;
  }
}

function common(job: string, key: string, now: number, payload: Record<string, unknown>) {
  return {
    ':entity': DUE_ENTITY,
    ':job': job,
    ':wk': key,
    ':payload': payload,
    ':ipk': dueIndexPartitionOf(job, key),
    ':now': new Date(now).toISOString(),
    ':one': 1,
  };
}

/**
 * Where a write leaves an item: pending in the index at its due time, or,
 * given `leaseUntil` (the caller sends the message itself right after the
 * write), dispatched and in the index at the end of that lease, as
 * `markDispatched` leaves it. One write instead of two for work due soon.
 */
function placement(dueAt: number, leaseUntil: number | undefined, now: number, sentAt = ':sent'): { sent: string; values: Record<string, unknown> } {
  return leaseUntil === undefined
    ? { sent: '', values: { ':phase': 'pending', ':isk': dueIndexTime(dueAt), ':dispatches': 0 } }
    : { sent: `, dispatched_at = ${sentAt}`, values: { ':phase': 'dispatched', ':isk': dueIndexTime(leaseUntil), ':dispatches': 1, ':sent': now } };
}

/** Sets (or moves) the due time of an item and makes it pending (or dispatched, given `leaseUntil`); answers the item. */
export async function putDue(job: string, key: string, dueAt: number, payload: Record<string, unknown>, now: number, leaseUntil?: number): Promise<DueItem> {
  const { sent, values } = placement(dueAt, leaseUntil, now);
  const item = await update(
    job,
    key,
    'SET #entity = :entity, #job = :job, #wk = :wk, #payload = :payload, #due = :due, #ipk = :ipk, #isk = :isk, #phase = :phase, ' +
      `#dispatches = :dispatches, #created = if_not_exists(#created, :now), #updated = :now${sent} ADD #gen :one`,
    { ...common(job, key, now, payload), ':due': dueAt, ...values },
  );
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
  const { sent, values } = placement(dueAt, leaseUntil, now, 'if_not_exists(dispatched_at, :sent)');
  const item = await update(
    job,
    key,
    'SET #entity = :entity, #job = :job, #wk = :wk, #payload = :payload, #due = if_not_exists(#due, :due), #ipk = :ipk, ' +
      '#isk = if_not_exists(#isk, :isk), #phase = if_not_exists(#phase, :phase), #dispatches = if_not_exists(#dispatches, :dispatches), ' +
      `#created = if_not_exists(#created, :now), #updated = :now${sent} ADD #gen :one`,
    { ...common(job, key, now, payload), ':due': dueAt, ...values },
  );
  return item!;
}

/**
 * Asks for one more run after the next, on an item that waits for its run
 * (pending or dispatched): for work saved when that run may already be
 * starting. Answers the item, or null when it is not waiting any more.
 */
export async function requestFollowUp(job: string, key: string, now: number): Promise<DueItem | null> {
  return update(
    job,
    key,
    'SET follow = :true, #updated = :now ADD #gen :one',
    { ':true': true, ':now': new Date(now).toISOString(), ':one': 1, ':pending': 'pending', ':dispatched': 'dispatched' },
    '#phase IN (:pending, :dispatched)',
  );
}

/** Brings a dead item back to pending at `dueAt` (a new request for work that had failed for good). */
export async function reviveDue(job: string, key: string, dueAt: number, now: number): Promise<DueItem | null> {
  return update(
    job,
    key,
    'SET #phase = :pending, #due = :due, #ipk = :ipk, #isk = :isk, #dispatches = :zero, #updated = :now REMOVE expires_at, parked_at',
    {
      ':pending': 'pending',
      ':due': dueAt,
      ':ipk': dueIndexPartitionOf(job, key),
      ':isk': dueIndexTime(dueAt),
      ':zero': 0,
      ':now': new Date(now).toISOString(),
      ':dead': 'dead',
    },
    '#phase = :dead',
  );
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
  return update(
    job,
    key,
    'SET #phase = :dispatched, #ipk = :ipk, #isk = :lease, dispatched_at = :now ADD #dispatches :one',
    { ':dispatched': 'dispatched', ':ipk': dueIndexPartitionOf(job, key), ':lease': dueIndexTime(leaseUntil), ':now': now, ':one': 1, ':seen': seenIndexTime },
    'attribute_exists(pk) AND #isk = :seen',
  );
}

/**
 * A consumer takes the item for itself until `claimUntil`: only when it is
 * due and nobody else holds a live claim. Answers the item, or null.
 */
export async function claimDue(job: string, key: string, claimId: string, claimUntil: number, now: number, toleranceMs: number): Promise<DueItem | null> {
  return update(
    job,
    key,
    'SET claim_id = :cid, claim_until = :until, claim_gen = #gen, #phase = :claimed, #ipk = :ipk, #isk = :isk',
    {
      ':cid': claimId,
      ':until': claimUntil,
      ':claimed': 'claimed',
      ':ipk': dueIndexPartitionOf(job, key),
      ':isk': dueIndexTime(claimUntil),
      ':now': now,
      ':dueBy': now + toleranceMs,
    },
    'attribute_exists(pk) AND #due <= :dueBy AND (attribute_not_exists(claim_until) OR claim_until < :now)',
  );
}

/** Deletes the item when this claim still holds it, no new work arrived (`gen` unchanged) and no follow-up was asked for. */
export async function completeDue(job: string, key: string, claimId: string, gen: number): Promise<boolean> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: dueItemKey(job, key),
        ConditionExpression: 'claim_id = :cid AND #gen = :gen AND attribute_not_exists(follow)',
        ExpressionAttributeNames: { '#gen': 'gen' },
        ExpressionAttributeValues: { ':cid': claimId, ':gen': gen },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
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
  const { sent, values } = placement(dueAt, leaseUntil, now);
  return update(
    job,
    key,
    `SET #phase = :phase, #due = :due, #ipk = :ipk, #isk = :isk, #dispatches = :dispatches, #updated = :now${sent} REMOVE claim_id, claim_until, follow`,
    { ':due': dueAt, ':ipk': dueIndexPartitionOf(job, key), ...values, ':now': new Date(now).toISOString(), ':cid': claimId },
    notMovedLater ? 'claim_id = :cid AND #due <= :due' : 'claim_id = :cid',
  );
}

/** Handling failed and the queue will deliver again: no claim, and the producer keeps away until `lookAgainAt`. */
export async function failDue(job: string, key: string, claimId: string, lookAgainAt: number, reason: string): Promise<DueItem | null> {
  return update(
    job,
    key,
    'SET #phase = :retrying, #ipk = :ipk, #isk = :isk, last_error = :reason REMOVE claim_id, claim_until ADD failures :one',
    { ':retrying': 'retrying', ':ipk': dueIndexPartitionOf(job, key), ':isk': dueIndexTime(lookAgainAt), ':reason': reason, ':one': 1, ':cid': claimId },
    'claim_id = :cid',
  );
}

/**
 * Handling failed on the last delivery (the message goes to the dead-letter
 * queue), or the item was sent too often: out of its job's index for good,
 * into the parked partition until an operator replays it (`reviveDue`).
 */
export async function parkDue(job: string, key: string, claimId: string | null, reason: string, now: number): Promise<DueItem | null> {
  const values: Record<string, unknown> = {
    ':dead': 'dead',
    ':reason': reason,
    ':ttl': Math.floor(now / 1000) + DEAD_RETENTION_SECONDS,
    ':one': 1,
    ':parked': PARKED_INDEX_PARTITION,
    ':at': dueIndexTime(now),
    ':now': now,
  };
  if (claimId) values[':cid'] = claimId;
  return update(
    job,
    key,
    'SET #phase = :dead, last_error = :reason, expires_at = :ttl, parked_at = :now, #ipk = :parked, #isk = :at REMOVE claim_id, claim_until ADD failures :one',
    values,
    claimId ? 'claim_id = :cid' : 'attribute_exists(pk)',
  );
}

/** Puts an item in its own index partition, provided it is still where the caller saw it; answers it, or null. */
export async function moveDue(job: string, key: string, seenIndexTime: string): Promise<DueItem | null> {
  return update(job, key, 'SET #ipk = :ipk', { ':ipk': dueIndexPartitionOf(job, key), ':seen': seenIndexTime }, 'attribute_exists(pk) AND #isk = :seen');
}

/** Every parked item, the latest parked first. */
export async function queryParked(): Promise<DueItem[]> {
  return (await queryAll({
    IndexName: DUE_INDEX.name,
    KeyConditionExpression: `${DUE_INDEX.partitionKey} = :pk`,
    ExpressionAttributeValues: { ':pk': PARKED_INDEX_PARTITION },
    ScanIndexForward: false,
  })) as DueItem[];
}

/** Items of one shard whose index time is at or before `until`, earliest first, at most `limit`. */
export async function queryDue(job: string, shard: number, until: number, limit: number): Promise<DueItem[]> {
  const items: DueItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: DUE_INDEX.name,
        KeyConditionExpression: `${DUE_INDEX.partitionKey} = :pk AND ${DUE_INDEX.sortKey} <= :until`,
        ExpressionAttributeValues: { ':pk': dueIndexPartition(job, shard), ':until': dueIndexTime(until) },
        Limit: Math.min(100, limit - items.length),
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((out.Items as DueItem[] | undefined) ?? []));
    start = out.LastEvaluatedKey;
  } while (start && items.length < limit);
  return items;
}

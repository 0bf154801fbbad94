import { deleteKeys } from '../db/batch.js';
import { dueItemKey } from './keys.js';
import * as store from './store.js';
import type { DueItem } from './store.js';

/**
 * The scheduler calls that touch only the table, apart from `scheduler.ts`
 * so a function that makes no other carries no queue client: asking for
 * work the producer will send in time, and cancelling.
 */

/**
 * Asks for work at `dueAt` unless some is already waiting (many requests
 * become one run), bringing an item that had failed for good back to
 * pending. A new item is written as dispatched given `leaseUntil` (the
 * caller sends it). Answers the item, or null when it was removed meanwhile.
 */
export async function requestItem(
  job: string,
  key: string,
  dueAt: number,
  payload: Record<string, unknown>,
  now: number,
  leaseUntil?: number,
): Promise<DueItem | null> {
  const item = await store.requestDue(job, key, dueAt, payload, now, leaseUntil);
  return item.phase === 'dead' ? store.reviveDue(job, key, dueAt, now) : item;
}

/**
 * Asks for work `delayMs` from now, coalesced as `requestSoon` coalesces,
 * and leaves sending it to the job's producer, which sends what falls due
 * within its horizon on each run. For work at least a producer period away
 * (a minute deployed, a second in local mode): it starts on time, and the
 * caller's bundle carries no queue client. Work due sooner goes through
 * `scheduler.requestSoon`, which sends it at once.
 */
export async function requestLater(job: string, key: string, delayMs: number, payload: Record<string, unknown> = {}): Promise<void> {
  const now = Date.now();
  await requestItem(job, key, now + delayMs, payload, now);
}

/** Forgets the item (a cancelled timer); a message already sent then finds nothing and does nothing. */
export const cancel = (job: string, key: string): Promise<void> => store.deleteDue(job, key);

/** Due work named by its job and key. */
export interface WorkRef {
  job: string;
  key: string;
}

/**
 * The table keys of due work, for a caller that forgets it in one batch
 * delete together with its own items (what `cancel` does one at a time).
 */
export const dueKeysOf = (work: readonly WorkRef[]) => work.map(({ job, key }) => dueItemKey(job, key));

/** Forgets several pieces of due work in one batch delete. */
export const cancelAll = (work: readonly WorkRef[]): Promise<void> => deleteKeys(dueKeysOf(work));

import { deadLetters } from './dead-letters.js';
import { listParked, type ParkedWork, parseParkedId, parkedWorkOf } from './parked.js';
import * as store from './store.js';

/**
 * Replaying parked work (see `parked.ts`): each item back to pending, due
 * now, with a condition that it is still parked (so two replays at once
 * replay it once), then its messages off the job's dead-letter queue.
 */

/** Replays what is still parked of `work`; answers the records replayed (a replay that lost a race to another is not among them). */
async function replay(work: readonly ParkedWork[], now: number): Promise<ParkedWork[]> {
  const replayed: ParkedWork[] = [];
  for (const item of work) {
    if (await store.reviveDue(item.job, item.key, now, now)) replayed.push(item);
  }
  const byJob = new Map<string, Set<string>>();
  for (const item of replayed) byJob.set(item.job, (byJob.get(item.job) ?? new Set()).add(item.key));
  for (const [job, keys] of byJob) await deadLetters().drop(job, keys);
  return replayed;
}

/** Replays one parked item; null when nothing is parked under that ID (never parked, done, or replayed already). */
export async function replayParked(id: string, now = Date.now()): Promise<ParkedWork | null> {
  const ref = parseParkedId(id);
  if (!ref) return null;
  const item = await store.getDue(ref.job, ref.key);
  if (item?.phase !== 'dead') return null;
  const [replayed] = await replay([parkedWorkOf(item)], now);
  return replayed ?? null;
}

/** Replays every parked item (of one job, given `job`); answers those replayed. */
export async function replayAllParked(job?: string, now = Date.now()): Promise<ParkedWork[]> {
  return replay(await listParked(job), now);
}

/**
 * A settings delete of a guild with millions of statistic records
 * (behaviour §12 and §15). The delete answers at once: it resets the module,
 * removes the counters and starboard entries (a few), and notes its time as
 * the cutoff of a pending delete (`PURGE` in the guild's statistics
 * partition). From then on the guild reads as reset: fetches and privacy
 * counts see only what was stored at or after the cutoff. The records and
 * open sessions stored before it are removed behind the answer, on the
 * scheduler, in bounded runs: each reads the partition a page at a time
 * from where the last stopped, deletes what is older than the cutoff, and
 * moves the stored place on with one conditional write. What is recorded
 * after the delete (the module enabled again) is newer than the cutoff and
 * stays; a second delete moves the cutoff and starts the removal again.
 */
import { type RunBudget, runBudget } from '#shared/scheduler/budget.js';
import { mayGoOn } from '#shared/scheduler/budget.js';
import { requestLater } from '#shared/scheduler/table-only.js';
import { deleteKeys, endPurge, getPurge, movePurge, startPurge, statPartitionPage, storedBefore } from './store.js';
import { keyOf } from '#shared/db/batch.js';

export const PURGE_JOB = 'serverstats.purge';

/** Notes a delete at `cutoff` and asks the scheduler to remove what was stored before it. */
export async function purgeBehind(guildId: string, cutoff: string): Promise<void> {
  await startPurge(guildId, cutoff);
  await requestLater(PURGE_JOB, guildId, 0);
}

export interface PurgeRun {
  /** Items read and items deleted in this run. */
  read: number;
  deleted: number;
  pages: number;
  /** Whether the delete is complete (nothing older than its cutoff is left). */
  done: boolean;
}

/**
 * One run of the removal: pages from where the delete stands, within
 * `budget`. A run repeated from the same place deletes what is already
 * gone (nothing); a run whose place was moved meanwhile (by a repeated
 * run, or a later delete) stops and leaves the rest to the next.
 */
export async function purgeRun(guildId: string, budget: RunBudget): Promise<PurgeRun> {
  const run: PurgeRun = { read: 0, deleted: 0, pages: 0, done: false };
  let purge = await getPurge(guildId);
  if (!purge) return { ...run, done: true };
  while (mayGoOn(budget, run.pages)) {
    const page = await statPartitionPage(guildId, purge.after);
    const old = page.items.filter((item) => storedBefore(item, purge!.cutoff));
    await deleteKeys(old.map(keyOf));
    run.pages++;
    run.read += page.items.length;
    run.deleted += old.length;
    if (page.lastSk === null) {
      run.done = await endPurge(guildId, purge.cutoff);
      break;
    }
    if (!(await movePurge(guildId, purge, page.lastSk))) break;
    purge = { ...purge, after: page.lastSk };
  }
  return run;
}

/** A scheduled run's budget from the time its function has left: at most 500 pages (`SERVERSTATS_PURGE_PAGES` lowers it). */
export const purgeBudget = (remainingMs: number) => runBudget(remainingMs, 500, 'SERVERSTATS_PURGE_PAGES');

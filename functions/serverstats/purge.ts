/**
 * A settings delete of a guild with millions of statistic records
 * (behaviour §12 and §15). The delete answers at once: it resets the module,
 * removes the counters and starboard entries (a few), and notes its time as
 * the cutoff of a pending delete (`PURGE` in the guild's statistics
 * partition). From then on the guild reads as reset: fetches and privacy
 * counts see only what was stored at or after the cutoff. The records and
 * open sessions stored before it are removed behind the answer by the
 * shared removal (`shared/scheduler/removal.ts`), which reads the whole
 * partition from where its last run stopped. What is recorded after the
 * delete (the module enabled again) is newer than the cutoff and stays.
 */
import { keyOf } from '#shared/db/batch.js';
import { removal } from '#shared/scheduler/removal.js';
import { PurgeEntity, statPartitionOf, storedBefore } from './store.js';
import { PURGE_JOB } from './jobs.js';

export { PURGE_JOB };

/** The removal of a deleted guild's statistics (scope: the guild ID); a run reads at most 500 pages (`SERVERSTATS_PURGE_PAGES` lowers it). */
export const statsRemoval = removal({
  job: PURGE_JOB,
  place: (guildId) => PurgeEntity.key({ guildId }),
  placeEntity: PurgeEntity.name,
  range: (guildId) => ({ pk: statPartitionOf(guildId) }),
  projection: 'pk, sk, expires_at',
  select: (_guildId, pending, items) => items.filter((item) => storedBefore(item, pending.cutoff)).map(keyOf),
  maxPages: 500,
  pagesEnv: 'SERVERSTATS_PURGE_PAGES',
});

/** Notes a delete at `cutoff` and asks the scheduler to remove what was stored before it. */
export const purgeBehind = (guildId: string, cutoff: string) => statsRemoval.start(guildId, cutoff);
/** The guild's pending delete (its cutoff and place), or null. */
export const getPurge = (guildId: string) => statsRemoval.get(guildId);

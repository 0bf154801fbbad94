/**
 * A settings delete of a guild with millions of invite uses (behaviour §12
 * and §15). The delete answers at once: it resets the module, removes the
 * invites and the vanity URL's count (a few), and notes its time as the
 * cutoff of a pending removal (`INVITESWEEP`) and as the module's
 * `data_since`. From then on the guild reads as reset: joins, leaves, the
 * uses list, the snapshot and privacy see only uses stored at or after the
 * cutoff. The uses and members' latest uses stored before it are removed
 * behind the answer by the shared removal (`shared/scheduler/removal.ts`);
 * a member's latest use written again since stays.
 */
import { removal } from '#shared/scheduler/removal.js';
import { UseSweepEntity, moduleRange, removedBefore } from './store.js';
import { USE_SWEEP_JOB } from './jobs.js';

export { USE_SWEEP_JOB };

/** The removal of a deleted guild's uses (scope: the guild ID); a run reads at most 200 pages (`INVITE_SWEEP_PAGES` lowers it). */
export const useSweep = removal({
  job: USE_SWEEP_JOB,
  place: (guildId) => UseSweepEntity.key({ guildId }),
  placeEntity: UseSweepEntity.name,
  range: moduleRange,
  projection: 'pk, sk',
  select: (guildId, pending, items) => removedBefore(guildId, pending.cutoff, items),
  maxPages: 200,
  pagesEnv: 'INVITE_SWEEP_PAGES',
});

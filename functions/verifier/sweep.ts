/**
 * A settings delete of a guild with millions of verification entries
 * (behaviour §12 and §15). The delete answers at once: it resets the
 * module and notes its time as the cutoff of a pending removal
 * (`VERIFSWEEP`) and as the module's `data_since`. From then on the guild
 * reads as reset: prompts, answers, the web page, the entries list, the
 * snapshot and privacy see only entries stored at or after the cutoff. The
 * entries stored before it, their ID pointers and the members' pointers
 * naming them are removed behind the answer by the shared removal
 * (`shared/scheduler/removal.ts`).
 */
import { removal } from '#shared/scheduler/removal.js';
import { EntrySweepEntity, moduleRange, removedBefore } from './store.js';
import { ENTRY_SWEEP_JOB } from './jobs.js';

export { ENTRY_SWEEP_JOB };

/** The removal of a deleted guild's entries (scope: the guild ID); a run reads at most 200 pages (`VERIFIER_SWEEP_PAGES` lowers it). */
export const entrySweep = removal({
  job: ENTRY_SWEEP_JOB,
  place: (guildId) => EntrySweepEntity.key({ guildId }),
  placeEntity: EntrySweepEntity.name,
  range: moduleRange,
  projection: 'pk, sk',
  select: (guildId, pending, items) => removedBefore(guildId, pending.cutoff, items),
  maxPages: 200,
  pagesEnv: 'VERIFIER_SWEEP_PAGES',
});

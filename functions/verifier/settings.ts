/**
 * The verifier's settings (behaviour §11): a change is checked (a type 2
 * needs a passphrase; prompts must fit the platform's limits) and a type
 * change voids the web links issued before it; the settings-delete
 * operation removes every verification of the guild (behind its answer,
 * behaviour §15).
 */
import { clockNow } from '#shared/clock.js';
import { unprocessable } from '#shared/errors.js';
import { templateProblem } from '#shared/templates/index.js';
import type { SettingsInput } from './schemas.js';
import { firstRecordsAndCount } from '#shared/modules/state.js';
import { writeDataSince } from '#shared/modules/store.js';
import { VerificationEntity, entriesFrom } from './store.js';
import { entrySweep } from './sweep.js';
import { LINKS_SINCE, MODULE, VerifierType } from './verifier.js';

/** The fields a change stores, once the settings it leaves are valid (422 otherwise). */
export function storedChanges(_guildId: string, changes: Omit<SettingsInput, 'guild_id'>, current: Record<string, unknown>) {
  const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  if (Number(next.verifier_type) === VerifierType.Passphrase && !next.verifier_passphrase) {
    throw unprocessable("Field 'verifier_passphrase' is required for verifier_type 2 (passphrase).");
  }
  for (const [field, embed] of [
    ['verifier_message_content', 'verifier_message_is_embed'],
    ['verifier_message_content_completed', 'verifier_message_completed_is_embed'],
  ] as const) {
    const problem = typeof next[field] === 'string' ? templateProblem(next[field] as string, next[embed] === true, field) : null;
    if (problem) throw unprocessable(problem);
  }
  // A type change voids every web link issued before it (written with the change, on the settings version read).
  const typeChanged = changes.verifier_type !== undefined && Number(changes.verifier_type) !== Number(current.verifier_type ?? VerifierType.Click);
  return typeChanged ? { ...changes, [LINKS_SINCE]: clockNow() } : changes;
}

/**
 * Answers the newest 1000 entries and their count (those stored since an
 * earlier delete still being removed: the older ones were answered by it).
 * The entries read as gone from now on and are removed behind the answer
 * (`sweep.ts`).
 */
export async function removeVerifications(guildId: string) {
  const cutoff = new Date().toISOString();
  const earlier = await entrySweep.get(guildId);
  const entries = await firstRecordsAndCount(guildId, VerificationEntity.prefix, earlier ? entriesFrom(earlier.cutoff) : undefined);
  await Promise.all([writeDataSince(guildId, MODULE, cutoff), entrySweep.start(guildId, cutoff)]);
  return { entries: entries.records, entries_total: entries.total };
}

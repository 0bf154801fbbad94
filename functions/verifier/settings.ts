/**
 * The verifier's settings (behaviour §11): a change is checked (a type 2
 * needs a passphrase; prompts must fit the platform's limits) and a type
 * change voids the web links issued before it; the settings-delete
 * operation removes every verification of the guild.
 */
import { clockNow } from '#shared/clock.js';
import { unprocessable } from '#shared/errors.js';
import { templateProblem } from '#shared/templates/index.js';
import type { SettingsInput } from './schemas.js';
import { answerList } from '#shared/modules/store.js';
import { deleteVerifications, listVerifications, verificationRecord } from './store.js';
import { LINKS_SINCE, VerifierType } from './verifier.js';

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

export async function removeVerifications(guildId: string) {
  const entries = await listVerifications(guildId);
  await deleteVerifications(entries);
  return answerList('entries', entries.map(verificationRecord));
}

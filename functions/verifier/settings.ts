/**
 * The verifier's settings (contract 11): read, change (only the fields
 * given; a type 2 needs a passphrase; prompts are checked against the
 * platform's limits when stored), and the settings-delete operation.
 */
import { clockNow } from '#shared/clock.js';
import { unprocessable } from '#shared/errors.js';
import { requireEnabled, resetModule, settingsRecord } from '#shared/modules/state.js';
import { updateSettings } from '#shared/modules/settings.js';
import { templateProblem } from '#shared/templates/index.js';
import type { SettingsInput } from './schemas.js';
import { deleteVerifications, listVerifications, verificationRecord } from './store.js';
import { LINKS_SINCE, MODULE, VerifierType } from './verifier.js';

export async function getSettings(guildId: string) {
  return { settings: settingsRecord(guildId, await requireEnabled(guildId, MODULE)) };
}

export async function changeSettings(guildId: string, input: SettingsInput) {
  const state = await requireEnabled(guildId, MODULE);
  const current = state.settings ?? {};
  const { guild_id: _g, ...changes } = input;
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
  const stored = typeChanged ? { ...changes, [LINKS_SINCE]: clockNow() } : changes;
  return { settings: settingsRecord(guildId, await updateSettings(guildId, MODULE, stored, state)) };
}

export async function deleteSettings(guildId: string) {
  const settings = await resetModule(guildId, MODULE);
  const entries = await listVerifications(guildId);
  await deleteVerifications(entries);
  return { settings, entries: entries.map(verificationRecord) };
}

/**
 * The invite tracker's settings (contract 11): read, change (only the
 * fields given non-null; `""` clears a channel), and the settings-delete
 * operation, which resets the module and removes its invites and uses.
 * Message contents are checked against the platform's limits when stored.
 */
import { unprocessable } from '#shared/errors.js';
import { requireEnabled, resetModule, settingsRecord } from '#shared/modules/state.js';
import { updateSettings } from '#shared/modules/settings.js';
import { templateProblem } from '#shared/templates/index.js';
import type { SettingsInput } from './schemas.js';
import { deleteModuleItems } from './store.js';
import { MODULE, inviteRecord, newestFirst } from './tracker.js';

export async function getSettings(guildId: string) {
  return { settings: settingsRecord(guildId, await requireEnabled(guildId, MODULE)) };
}

export async function changeSettings(guildId: string, input: SettingsInput) {
  const state = await requireEnabled(guildId, MODULE);
  const current = state.settings ?? {};
  const { guild_id: _g, ...changes } = input;
  for (const which of ['join', 'leave'] as const) {
    const content = changes[`${which}_message_content`] ?? (current[`${which}_message_content`] as string | null);
    const isEmbed = changes[`${which}_message_is_embed`] ?? current[`${which}_message_is_embed`] === true;
    const problem = content == null ? null : templateProblem(content, isEmbed, `${which}_message_content`);
    if (problem) throw unprocessable(problem);
  }
  return { settings: settingsRecord(guildId, await updateSettings(guildId, MODULE, changes, state)) };
}

export async function deleteSettings(guildId: string) {
  const settings = await resetModule(guildId, MODULE);
  const { invites, uses } = await deleteModuleItems(guildId);
  return { settings, invites: invites.sort(newestFirst).map(inviteRecord), stats_uses: uses };
}

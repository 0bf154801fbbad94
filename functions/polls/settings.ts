/**
 * The module's settings (contract 5 and 6): read, change, and the
 * settings-delete operation, which resets the module and removes every poll
 * of the guild (voters, timers, items). Messages on the platform are left
 * as they are: removing data never depends on the platform answering.
 */
import { requireEnabled, resetModule, settingsRecord } from '#shared/modules/state.js';
import { updateSettings } from '#shared/modules/settings.js';
import { removePoll } from './lifecycle.js';
import { recordOf } from './polls.js';
import { listPolls } from './store.js';

const MODULE = 'polls';

export interface SettingsInput {
  save_duration_timeout: number;
  delete_ended_platform_polls: boolean;
  delete_ended_service_polls: boolean;
}

export async function getSettings(guildId: string) {
  return { settings: settingsRecord(guildId, await requireEnabled(guildId, MODULE)) };
}

export async function changeSettings(guildId: string, input: SettingsInput) {
  return { settings: settingsRecord(guildId, await updateSettings(guildId, MODULE, { ...input })) };
}

/** Answers what it removed: the settings record (null when there was none) and the polls. */
export async function deleteSettings(guildId: string) {
  const settings = await resetModule(guildId, MODULE);
  const polls = await listPolls(guildId);
  const removed: Record<string, unknown>[] = [];
  for (const poll of polls) {
    removed.push(await recordOf(poll));
    await removePoll(poll, { deleteMessage: false });
  }
  return { settings, polls: removed };
}

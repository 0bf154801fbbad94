/**
 * The giveaways settings (contract 11): read, change (only the fields given),
 * and the settings-delete operation, which resets the module and removes
 * every giveaway of the guild with its timers; messages stay on the platform.
 */
import { requireEnabled, resetModule, settingsRecord } from '#shared/modules/state.js';
import { updateSettings } from '#shared/modules/settings.js';
import { MODULE, giveawayRecord } from './giveaways.js';
import { cancelTimers } from './lifecycle.js';
import { deleteGiveaway, listGiveaways } from './store.js';

export async function getSettings(guildId: string) {
  return { settings: settingsRecord(guildId, await requireEnabled(guildId, MODULE)) };
}

export async function changeSettings(guildId: string, changes: { save_duration_timeout?: number; delete_ended_giveaways?: boolean }) {
  return { settings: settingsRecord(guildId, await updateSettings(guildId, MODULE, changes)) };
}

export async function deleteSettings(guildId: string) {
  const settings = await resetModule(guildId, MODULE);
  const giveaways = await listGiveaways(guildId);
  for (const g of giveaways) {
    await deleteGiveaway(guildId, g.entry_id);
    await cancelTimers(guildId, g.entry_id);
  }
  return { settings, giveaways: giveaways.map(giveawayRecord) };
}

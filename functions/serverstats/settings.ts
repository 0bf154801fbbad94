/**
 * The serverstats settings (document 2, contract 11): read, change (only
 * the fields given; `"create"` makes the category or starboard channel on
 * the platform, `""` clears it), and the settings-delete operation, which
 * resets the module and removes all its data of the guild: statistic
 * records, open sessions, counters and starboard entries. Channels and
 * posts on the platform stay: removing data never depends on the platform.
 */
import type { RESTPostAPIGuildChannelJSONBody } from 'discord-api-types/v10';
import { requireEnabled, resetModule, settingsRecord } from '#shared/modules/state.js';
import { updateSettings } from '#shared/modules/settings.js';
import { platform } from '#shared/platform/client.js';
import { counterData, counterRecord } from './counters-store.js';
import type { SettingsInput } from './schemas.js';
import { entryRecord, listStarboardEntries, starboardKeys } from './starboard-store.js';
import { deleteKeys, guildStatKeysPage } from './store.js';

export const MODULE = 'serverstats';

export async function getSettings(guildId: string) {
  return { settings: settingsRecord(guildId, await requireEnabled(guildId, MODULE)) };
}

/** A channel setting as stored: a snowflake, null for `""`, a new channel's ID for `"create"`. */
async function channelValue(guildId: string, value: string | undefined, create: RESTPostAPIGuildChannelJSONBody): Promise<string | null | undefined> {
  if (value === undefined) return undefined;
  if (value === '') return null;
  if (value !== 'create') return value;
  const channel = await platform.createGuildChannel(guildId, create);
  return channel.id;
}

export async function changeSettings(guildId: string, input: SettingsInput) {
  const state = await requireEnabled(guildId, MODULE);
  const { guild_id: _guild, counters_category_id, starboard_channel_id, starboard_count, ...flags } = input;
  const changes: Record<string, unknown> = { ...flags };
  changes.counters_category_id = await channelValue(guildId, counters_category_id, { name: 'Server Stats', type: 4 /* category */ });
  changes.starboard_channel_id = await channelValue(guildId, starboard_channel_id, { name: 'starboard', type: 0 /* text */ });
  if (starboard_count !== undefined) changes.starboard_count = String(starboard_count);
  return { settings: settingsRecord(guildId, await updateSettings(guildId, MODULE, changes, state)) };
}

/** Answers what it removed: the settings record (null when there was none), the counters and the starboard entries. */
export async function deleteSettings(guildId: string) {
  const settings = await resetModule(guildId, MODULE);
  const [{ counters, keys }, entries, first] = await Promise.all([counterData(guildId), listStarboardEntries(guildId), guildStatKeysPage(guildId)]);
  await deleteKeys([...keys, ...starboardKeys(entries), ...first.keys]);
  // Every record and open session of the guild is in one partition: the rest of it, page by page.
  for (let start = first.lastKey; start; ) {
    const page = await guildStatKeysPage(guildId, start);
    await deleteKeys(page.keys);
    start = page.lastKey;
  }
  return { settings, counters: counters.map(counterRecord), starboard_entries: entries.map(entryRecord) };
}

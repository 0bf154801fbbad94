/**
 * The serverstats settings (document 2, contract 11): read, change (only
 * the fields given; `"create"` makes the category or starboard channel on
 * the platform, `""` clears it), and the settings-delete operation, which
 * resets the module and removes all its data of the guild: statistic
 * records, open sessions, counters and starboard entries. Channels and
 * posts on the platform stay: removing data never depends on the platform.
 */
import type { RESTPostAPIGuildChannelJSONBody } from 'discord-api-types/v10';
import { requireEnabled, resetModule, settingsRecord } from '../../shared/modules/state.js';
import { updateSettings } from '../../shared/modules/settings.js';
import { platform } from '../../shared/platform/client.js';
import { counterRecord, deleteCounterItems, deleteCounterSlots, forgetGuildWithCounters, listCounters } from './counters-store.js';
import { FAMILIES } from './families.js';
import type { SettingsInput } from './schemas.js';
import { deleteStarboardItems, entryRecord, listStarboardEntries } from './starboard-store.js';
import { deleteKeys, familyRecordsPage, sessionKeysOfGuild } from './store.js';

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
  await requireEnabled(guildId, MODULE);
  const { guild_id: _guild, counters_category_id, starboard_channel_id, starboard_count, ...flags } = input;
  const changes: Record<string, unknown> = { ...flags };
  changes.counters_category_id = await channelValue(guildId, counters_category_id, { name: 'Server Stats', type: 4 /* category */ });
  changes.starboard_channel_id = await channelValue(guildId, starboard_channel_id, { name: 'starboard', type: 0 /* text */ });
  if (starboard_count !== undefined) changes.starboard_count = String(starboard_count);
  return { settings: settingsRecord(guildId, await updateSettings(guildId, MODULE, changes)) };
}

/** Answers what it removed: the settings record (null when there was none), the counters and the starboard entries. */
export async function deleteSettings(guildId: string) {
  const settings = await resetModule(guildId, MODULE);
  const [counters, entries] = await Promise.all([listCounters(guildId), listStarboardEntries(guildId)]);
  await deleteCounterItems(counters);
  await deleteCounterSlots(guildId);
  await forgetGuildWithCounters(guildId);
  await deleteStarboardItems(entries);
  // Each family is its own partition: they are emptied side by side, each page by page.
  await Promise.all(
    FAMILIES.map(async (family) => {
      let start: Record<string, unknown> | undefined;
      do {
        const page = await familyRecordsPage(guildId, family.path, start);
        await deleteKeys(page.keys);
        start = page.lastKey ?? undefined;
      } while (start);
    }),
  );
  await deleteKeys(await sessionKeysOfGuild(guildId));
  return { settings, counters: counters.map(counterRecord), starboard_entries: entries.map(entryRecord) };
}

/**
 * The serverstats settings (behaviour §D2, §11): a change stores
 * `"create"` as the category or starboard channel it makes on the platform
 * and `""` as null, and the settings-delete operation removes all the
 * module's data of the guild: statistic records and open sessions (behind
 * the answer), counters and starboard entries. Channels and posts on the platform stay: removing
 * data never depends on the platform.
 */
import type { RESTPostAPIGuildChannelJSONBody } from 'discord-api-types/v10';
import { answerList, writeDataSince } from '#shared/modules/store.js';
import { platform } from '#shared/platform/client.js';
import { counterData, counterRecord, deleteCounterData } from './counters-store.js';
import type { SettingsInput } from './schemas.js';
import { deleteStarboardItems, entryRecord, listStarboardEntries } from './starboard-store.js';
import { purgeBehind } from './purge.js';

/** A channel setting as stored: a snowflake, null for `""`, a new channel's ID for `"create"`. */
async function channelValue(guildId: string, value: string | undefined, create: RESTPostAPIGuildChannelJSONBody): Promise<string | null | undefined> {
  if (value === undefined) return undefined;
  if (value === '') return null;
  if (value !== 'create') return value;
  const channel = await platform.createGuildChannel(guildId, create);
  return channel.id;
}

/** The fields a change stores: the channels as {@link channelValue} makes them, the count as a string. */
export async function storedChanges(guildId: string, input: Omit<SettingsInput, 'guild_id'>) {
  const { counters_category_id, starboard_channel_id, starboard_count, ...flags } = input;
  const changes: Record<string, unknown> = { ...flags };
  changes.counters_category_id = await channelValue(guildId, counters_category_id, { name: 'Server Stats', type: 4 /* category */ });
  changes.starboard_channel_id = await channelValue(guildId, starboard_channel_id, { name: 'starboard', type: 0 /* text */ });
  if (starboard_count !== undefined) changes.starboard_count = String(starboard_count);
  return changes;
}

/**
 * Answers what it removed: the counters and the starboard entries, at once.
 * The statistic records and open sessions (millions in a large guild) read
 * as gone from now on and are removed behind the answer (`purge.ts`).
 */
export async function removeStatistics(guildId: string) {
  const cutoff = new Date().toISOString();
  const [counterItems, entries] = await Promise.all([counterData(guildId), listStarboardEntries(guildId)]);
  const { counters } = counterItems;
  await Promise.all([
    deleteCounterData(guildId, counterItems),
    deleteStarboardItems(entries),
    writeDataSince(guildId, 'serverstats', cutoff),
    purgeBehind(guildId, cutoff),
  ]);
  return {
    counters: counters.map(counterRecord),
    ...answerList('starboard_entries', entries.map(entryRecord)),
    message:
      `Removed ${counters.length} counter${counters.length === 1 ? '' : 's'} and ${entries.length} starboard ` +
      `entr${entries.length === 1 ? 'y' : 'ies'}. The statistic records of guild ${guildId} read as gone from now on ` +
      'and are being removed behind this answer; what is recorded from now on stays.',
  };
}

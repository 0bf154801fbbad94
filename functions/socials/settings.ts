/**
 * The socials settings (contract 6): read, change, and the settings-delete
 * operation, which resets the module and removes every entry of the guild;
 * sources no guild watches any more stop being polled.
 */
import { requireEnabled, resetModule, settingsRecord } from '#shared/modules/state.js';
import { updateSettings } from '#shared/modules/settings.js';
import { dropUnwatchedSource, entryRecords } from './entries.js';
import { KIND_LIST, type Kind } from './kinds.js';
import { deleteGuildEntries, deleteWatchers } from './store.js';

export const MODULE = 'socials';

export async function getSettings(guildId: string) {
  return { settings: settingsRecord(guildId, await requireEnabled(guildId, MODULE)) };
}

export async function changeSettings(guildId: string, input: Record<'monitor_forum' | 'monitor_rss' | 'monitor_stream' | 'monitor_video', boolean>) {
  return { settings: settingsRecord(guildId, await updateSettings(guildId, MODULE, { ...input })) };
}

export async function deleteSettings(guildId: string) {
  const settings = await resetModule(guildId, MODULE);
  const entries = await deleteGuildEntries(guildId);
  const records = Object.fromEntries(
    await Promise.all(KIND_LIST.map(async ({ kind }) => [kind, await entryRecords(entries.filter((e) => e.kind === kind))] as const)),
  );
  await Promise.all(entries.map((entry) => deleteWatchers(entry.kind, entry.ident, [{ guild_id: guildId, channel_id: entry.target_channel_id }])));
  // A source no other guild watches stops being polled.
  const sources = new Map(entries.map((e) => [`${e.kind}:${e.ident}`, e]));
  await Promise.all([...sources.values()].map((entry) => dropUnwatchedSource(entry.kind, entry.ident)));
  return { settings, entries: records as Record<Kind, Record<string, unknown>[]> };
}

/**
 * What the socials settings-delete operation removes (behaviour §6) once the
 * module is reset: every entry of the guild; sources no guild watches any
 * more stop being polled.
 */
import { dropUnwatchedSource, entryRecords } from './entries.js';
import { KIND_LIST, type Kind } from './kinds.js';
import { deleteGuildEntries, deleteWatchers } from './store.js';

export async function removeEntries(guildId: string) {
  const entries = await deleteGuildEntries(guildId);
  const records = Object.fromEntries(
    await Promise.all(KIND_LIST.map(async ({ kind }) => [kind, await entryRecords(entries.filter((e) => e.kind === kind))] as const)),
  );
  await Promise.all(entries.map((entry) => deleteWatchers(entry.kind, entry.ident, [{ guild_id: guildId, channel_id: entry.target_channel_id }])));
  // A source no other guild watches stops being polled.
  const sources = new Map(entries.map((e) => [`${e.kind}:${e.ident}`, e]));
  await Promise.all([...sources.values()].map((entry) => dropUnwatchedSource(entry.kind, entry.ident)));
  return { entries: records as Record<Kind, Record<string, unknown>[]> };
}

/**
 * The tags module's stored items and the operations on them (through its entities).
 * Every item lives in the guild partition `G#<guild>`, so each decision is a
 * strongly consistent read of the base table on a key the caller computes:
 *
 * - A tag: `TAG#ENTRY#<tag_id>`, the record plus its names (`_names`, each
 *   with the claim that holds its pointer) and a `version` every edit bumps.
 *   Tag IDs start with the time, so the tags list newest first by key.
 * - A name pointer: `TAG#NAME#<lower-cased name>` -> the tag holding it,
 *   written only when absent. One pointer per name is what makes names
 *   unique in a guild, case-insensitively, however many requests race.
 * - The count: `TAG#COUNT`, raised under the limit before a tag is written.
 */
import { entity } from '#shared/db/entity.js';
import { deleteGuildItems, guildKey } from '#shared/modules/store.js';
import type { Tag, TagName, VisibilityValue } from './model.js';

/** A name as the tag item keeps it: its record fields and the claim holding its pointer. */
export interface StoredName {
  id: number;
  name: string;
  created_at: string;
  claim: string;
}

/** A tag as stored: the record, its names, and the version its next edit is conditioned on. */
export interface StoredTag {
  tag: Tag;
  names: StoredName[];
  version: number;
}

/** A name pointer: which tag holds (or is claiming) the name, under which claim, since when. */
export interface NamePointer {
  tag_id: string;
  claim: string;
  claimed_at: number;
}

/** The key a name is unique under: names compare case-insensitively. */
export const nameKeyOf = (name: string) => name.toLowerCase();

const inGuild = (f: { guildId: string }) => guildKey(f.guildId);

/** Everything the module stores in the guild partition begins with this (the module's reset deletes it all). */
const MODULE_PREFIX = 'TAG#';

export const TagEntity = entity({
  name: 'tags_entry',
  prefix: 'TAG#ENTRY#',
  pk: inGuild,
  sk: (f: { guildId: string; tagId: string }) => [f.tagId],
  parse: (item): StoredTag => {
    const tag: Tag = {
      id: Number(item.id),
      guild_id: String(item.guild_id),
      tag_id: String(item.tag_id),
      content: String(item.content),
      owner_id: String(item.owner_id),
      created_at: String(item.created_at),
      last_update: String(item.last_update),
      visibility: Number(item.visibility) as VisibilityValue,
    };
    const names = (item._names as StoredName[] | undefined) ?? [];
    return { tag, names: names.map((n) => ({ ...n, id: Number(n.id) })), version: Number(item.version) };
  },
});

/** `key`: the name as {@link nameKeyOf} makes it. */
export const NameEntity = entity({
  name: 'tags_name',
  prefix: 'TAG#NAME#',
  pk: inGuild,
  sk: (f: { guildId: string; key: string }) => [f.key],
  parse: (item): NamePointer => ({ tag_id: String(item.tag_id), claim: String(item.claim), claimed_at: Number(item.claimed_at) }),
});

/** The count of the guild's tags (`tags`). */
export const CountEntity = entity({ name: 'tags_count', prefix: 'TAG#COUNT', pk: inGuild, parse: (item) => Number(item.tags) });

/** The names of a stored tag as records. */
export const nameRecords = (stored: StoredTag): TagName[] =>
  stored.names.map((n) => ({ id: n.id, guild_id: stored.tag.guild_id, tag_id: stored.tag.tag_id, name: n.name, created_at: n.created_at }));

export const getTag = (guildId: string, tagId: string) => TagEntity.get({ guildId, tagId });

export const getPointer = (guildId: string, key: string) => NameEntity.get({ guildId, key });

/** Every tag of the guild, newest first. */
export const listTags = (guildId: string) => TagEntity.query({ guildId }, { reverse: true });

// The count: the limit of tags a guild may keep, as a condition on one item.

/** Takes one place under `max`; false when the guild already has `max` tags. */
export const reservePlace = (guildId: string, max: number) =>
  CountEntity.update({ guildId }, { add: { tags: 1 }, condition: { $or: [{ tags: { exists: false } }, { tags: { lt: max } }] }, returnValues: 'NONE' });

/** Gives a place back (a tag deleted, or a create that did not happen). */
export async function releasePlace(guildId: string): Promise<void> {
  await CountEntity.update({ guildId }, { add: { tags: -1 }, condition: { tags: { gt: 0 } }, returnValues: 'NONE' });
}

// Name pointers.

/** Writes a name's pointer when no pointer exists; false when one does. */
export const putPointer = (guildId: string, key: string, pointer: NamePointer) => NameEntity.put({ guildId, key }, pointer, { ifAbsent: true });

/** Replaces a pointer still held by `stale` (a claim left behind by a crash); false when it changed since. */
export const replacePointer = (guildId: string, key: string, stale: NamePointer, pointer: NamePointer) =>
  NameEntity.put({ guildId, key }, pointer, { condition: { claim: stale.claim } });

/** Deletes a pointer if `claim` still holds it (idempotent). */
export async function deletePointer(guildId: string, key: string, claim: string): Promise<void> {
  await NameEntity.delete({ guildId, key }, { condition: { claim } });
}

// Tags.

const tagFields = (stored: StoredTag) => ({ guildId: stored.tag.guild_id, tagId: stored.tag.tag_id });
const tagAttributes = (stored: StoredTag) => ({ ...stored.tag, _names: stored.names, version: stored.version });

/** Writes a new tag; false if its ID exists. */
export const insertTag = (stored: StoredTag) => TagEntity.put(tagFields(stored), tagAttributes(stored), { ifAbsent: true });

/** Replaces a tag if it is still at `version` (the new one carries version + 1); false when it changed or went. */
export const replaceTag = (stored: StoredTag, version: number) => TagEntity.put(tagFields(stored), tagAttributes(stored), { condition: { version } });

/** Deletes a tag if it is still at `version`; false when it changed or went. */
export const deleteTagAt = (guildId: string, tagId: string, version: number) => TagEntity.delete({ guildId, tagId }, { condition: { version } });

/** Removes every item of the module in the guild (tags, name pointers, the count); answers the tags it held. */
export async function deleteModuleItems(guildId: string): Promise<StoredTag[]> {
  const items = await deleteGuildItems(guildId, MODULE_PREFIX);
  return items.filter(TagEntity.holds).map(TagEntity.parse).reverse();
}

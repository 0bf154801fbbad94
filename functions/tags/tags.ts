/**
 * Tags: named snippets of a guild (behaviour §11 and §12). Names are unique
 * per guild case-insensitively (names.ts); at most 1000 tags a guild, a
 * condition on the guild's count. Edit and delete are owner-only (behaviour
 * §4); a change that loses a race with another on the same tag is done again
 * on the tag as it now is, so concurrent edits lose nothing.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { type Asker, requireOwner } from '#shared/auth/owner.js';
import type { Page, PageQuery } from '#shared/db/entity.js';
import { pageWithin } from '#shared/db/page.js';
import { nextRecordIdFromBlock, recordIdAhead } from '#shared/db/record-ids.js';
import { databaseFailed, notFound, unprocessable } from '#shared/errors.js';
import { mintOrderedId } from '#shared/ids.js';
import { requireEnabled, requireEnabledRecord, requireEnabledWhile, requireEnabledWith } from '#shared/modules/state.js';
import { tellMember } from '#shared/platform/interaction.js';
import { MAX_TAGS, MODULE, type Tag, type TagWithNames, type VisibilityValue } from './model.js';
import { type ClaimResult, claimNames, planNames, releaseNames } from './names.js';
import {
  NameEntity,
  type StoredTag,
  TagEntity,
  deleteModuleItems,
  deleteTagAt,
  getTag,
  insertTag,
  listTags,
  nameKeyOf,
  nameRecords,
  releasePlace,
  replaceTag,
  reservePlace,
} from './store.js';
import { readPage } from '#shared/db/page.js';

export interface CreateTagInput {
  owner_id: string;
  content: string;
  visibility: number;
  names: string[];
}

/** Fields of an edit; undefined keeps the field. */
export interface EditTagInput {
  owner_id?: string;
  content?: string;
  visibility?: number;
  names?: string[];
}

/** How often a change is tried again after losing a race on the same tag. */
const ATTEMPTS = 5;

const nameId = () => nextRecordIdFromBlock('tags.name');
const answer = (stored: StoredTag): TagWithNames => ({ entry: stored.tag, entry_names: nameRecords(stored) });
const shown = (text: string) => `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;
/** Whether text could be a tag ID minted here; anything else names no tag (and is never read). */
const isTagId = (text: string) => /^[0-9a-z]{9}[A-Za-z0-9_-]{22}$/.test(text);

function takenProblem(guildId: string, result: Extract<ClaimResult, { ok: false }>) {
  return unprocessable(`The name ${shown(result.taken)} already belongs to a tag of guild ${guildId} (names are compared ignoring case); choose another.`);
}

/** The module state and the tag, 409 when disabled and 404 when the guild has no such tag. */
export async function enabledTag(guildId: string, tagId: string): Promise<StoredTag> {
  const missing = `Guild ${guildId} has no tag ${shown(tagId)}.`;
  if (!isTagId(tagId)) {
    await requireEnabled(guildId, MODULE);
    throw notFound(missing);
  }
  return requireEnabledRecord(guildId, MODULE, TagEntity, { guildId, tagId }, missing);
}

export async function getTagRecord(guildId: string, tagId: string): Promise<TagWithNames> {
  return answer(await enabledTag(guildId, tagId));
}

/** The guild's tags newest first, a page at a time; with `name`, only the tag holding that name (a key lookup). */
export async function listTagRecords(guildId: string, query: PageQuery, name?: string) {
  const scope = { guildId, family: 'tags', filter: { name: name ?? null } };
  let page: Page<TagWithNames>;
  if (name !== undefined) {
    const found = await tagNamed(guildId, name);
    page = await pageWithin(found ? [answer(found)] : [], query, scope);
  } else {
    [, page] = await requireEnabledWhile(guildId, MODULE, () => readPage(TagEntity, { guildId }, query, { scope, reverse: true, shown: answer }));
  }
  const { items, ...fields } = page;
  return { entries: items, ...fields };
}

/**
 * The tag holding a name: its pointer (read with the module state), then the
 * tag, which holds the name only if it lists it (a pointer it does not list
 * is a claim under way).
 */
async function tagNamed(guildId: string, name: string): Promise<StoredTag | null> {
  const pointer = await requireEnabledWith(guildId, MODULE, NameEntity, { guildId, key: nameKeyOf(name) });
  if (!pointer) return null;
  const tag = await getTag(guildId, pointer.tag_id);
  const key = nameKeyOf(name);
  return tag?.names.some((n) => nameKeyOf(n.name) === key && n.claim === pointer.claim) ? tag : null;
}

export async function createTag(guildId: string, input: CreateTagInput, asker: Asker): Promise<TagWithNames> {
  const id = recordIdAhead('tags.entry', true);
  await requireEnabled(guildId, MODULE);
  if (!(await reservePlace(guildId, MAX_TAGS))) {
    throw unprocessable(`Guild ${guildId} already has ${MAX_TAGS} tags, the most it may keep; delete one first.`);
  }
  const now = new Date();
  const tagId = mintOrderedId(now.getTime());
  let claimed: StoredTag['names'] = [];
  try {
    const result = await claimNames(guildId, tagId, input.names, now, nameId);
    if (!result.ok) throw takenProblem(guildId, result);
    claimed = result.claimed;
    const tag: Tag = {
      id: await id,
      guild_id: guildId,
      tag_id: tagId,
      content: input.content,
      owner_id: input.owner_id,
      created_at: now.toISOString(),
      last_update: now.toISOString(),
      visibility: input.visibility as VisibilityValue,
    };
    const stored: StoredTag = { tag, names: claimed, version: 1 };
    if (!(await insertTag(stored))) throw new Error(`minted tag ID ${tagId} already exists`);
    await tellMember(asker.interaction, `Tag ${input.names[0]} created.`);
    return answer(stored);
  } catch (error) {
    await releaseNames(guildId, claimed);
    await releasePlace(guildId);
    throw error;
  }
}

/** `PUT /entries/{entry_id}`: changes the fields given; `names` replaces every name. Owner-only. */
export async function editTag(guildId: string, tagId: string, input: EditTagInput, asker: Asker): Promise<TagWithNames> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await enabledTag(guildId, tagId);
    requireOwner(current.tag.owner_id, `tag ${tagId}`, asker.caller, asker.actor, 'edit');
    const now = new Date();
    const plan = input.names ? planNames(current, input.names) : { kept: current.names, toClaim: [], dropped: [] };
    const result = await claimNames(guildId, tagId, plan.toClaim, now, nameId);
    if (!result.ok && !result.busy) throw takenProblem(guildId, result);
    if (result.ok) {
      const byKey = new Map([...plan.kept, ...result.claimed].map((n) => [nameKeyOf(n.name), n]));
      const next: StoredTag = {
        tag: {
          ...current.tag,
          ...(input.content !== undefined && { content: input.content }),
          ...(input.owner_id !== undefined && { owner_id: input.owner_id }),
          ...(input.visibility !== undefined && { visibility: input.visibility as VisibilityValue }),
          last_update: now.toISOString(),
        },
        names: input.names ? input.names.map((name) => byKey.get(nameKeyOf(name))!) : current.names,
        version: current.version + 1,
      };
      if (await replaceTag(next, current.version)) {
        await releaseNames(guildId, plan.dropped);
        await tellMember(asker.interaction, `Tag ${next.names[0]?.name ?? tagId} updated.`);
        return answer(next);
      }
      await releaseNames(guildId, result.claimed);
    }
    await delay(10 + Math.random() * 40 * (attempt + 1));
  }
  throw databaseFailed(`Tag ${tagId} kept changing under other edits at the same time; try again.`);
}

/** Deletes a tag and frees its names. Owner-only. */
export async function deleteTag(guildId: string, tagId: string, asker: Asker): Promise<TagWithNames> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await enabledTag(guildId, tagId);
    requireOwner(current.tag.owner_id, `tag ${tagId}`, asker.caller, asker.actor, 'delete');
    if (await removeTag(guildId, current)) {
      await tellMember(asker.interaction, `Tag ${current.names[0]?.name ?? tagId} deleted.`);
      return answer(current);
    }
  }
  throw databaseFailed(`Tag ${tagId} kept changing under other edits at the same time; try again.`);
}

/** Deletes a tag as read (false when it changed since), then its names and its place in the count. */
async function removeTag(guildId: string, stored: StoredTag): Promise<boolean> {
  if (!(await deleteTagAt(guildId, stored.tag.tag_id, stored.version))) return false;
  await releaseNames(guildId, stored.names);
  await releasePlace(guildId);
  return true;
}

/** What `DELETE /settings` removes once the module is reset: every tag and name of the guild. */
export async function removeTags(guildId: string) {
  const removed = await deleteModuleItems(guildId);
  return { entries: removed.map((s) => s.tag), entries_names: removed.flatMap(nameRecords) };
}

const ownedBy = async (guildId: string, memberId: string) => (await listTags(guildId)).filter((s) => s.tag.owner_id === memberId);

/** Privacy: the member's tags are counted under `id`; the module keeps no names of members. */
export async function countMemberEntries(guildId: string, memberId: string) {
  return (await ownedBy(guildId, memberId)).length;
}

/** Privacy: the member's tags are deleted (handed to nobody), their names freed. */
export async function deleteMemberEntries(guildId: string, memberId: string) {
  let removed = 0;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const owned = await ownedBy(guildId, memberId);
    if (owned.length === 0) break;
    for (const stored of owned) if (await removeTag(guildId, stored)) removed++;
  }
  return `Deleted ${removed} tag${removed === 1 ? '' : 's'} of member ${memberId} in guild ${guildId}.`;
}

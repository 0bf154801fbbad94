/**
 * Entry use cases: list, add, get, edit, delete. Every change is written to
 * the panel item first (where the rules across entries hold), then shown on
 * the platform, and undone when the platform refuses.
 */
import { notFound, unprocessable } from '#shared/errors.js';
import { mintId } from '#shared/ids.js';
import { recordIdAhead } from '#shared/db/record-ids.js';
import { dropEntry } from './claims.js';
import { type Claim, type Entry, type Panel, entryRecord, entryRecords } from './model.js';
import { loadEnabledPanel, publishChange, updatePanel } from './panel-updates.js';
import { changeRoles, undoRoleChanges } from './roles.js';
import { MAX_ENTRIES, entryEmojiKey, entryTextProblem } from './rules.js';
import { getClaim, listPanelClaims, writeClaim } from './store.js';
import { errorField, log } from '#shared/observe/log.js';

const MAX_CLAIM_ATTEMPTS = 25;

export interface AddEntryInput {
  role_ids: string[];
  emoji_name: string;
  emoji_id?: string | null;
  text?: string | null;
  description?: string | null;
}

export interface EditEntryInput {
  role_ids: string[];
  text?: string | null;
  description?: string | null;
}

function findEntry(panel: Panel, entryId: string): Entry {
  const entry = panel.entries.find((e) => e.entry_id === entryId);
  if (!entry) throw notFound(`Reaction-role panel '${panel.panel_id}' has no entry '${entryId}'.`);
  return entry;
}

function checkText(panel: Panel, entry: Pick<Entry, 'text' | 'description'>): void {
  const problem = entryTextProblem(panel.panel_type, entry);
  if (problem) throw unprocessable(problem);
}

export async function listEntries(guildId: string, panelId: string) {
  return { entries: entryRecords(await loadEnabledPanel(guildId, panelId)) };
}

export async function getEntry(guildId: string, panelId: string, entryId: string) {
  const panel = await loadEnabledPanel(guildId, panelId);
  return { entry: entryRecord(panel, findEntry(panel, entryId)) };
}

/**
 * Adds an entry at the end of the panel: an emoji panel gets the service's
 * reaction with its emoji, a button or dropdown panel is rendered again.
 */
export async function addEntry(guildId: string, panelId: string, input: AddEntryInput) {
  const id = recordIdAhead('reactionroles.entry');
  const read = await loadEnabledPanel(guildId, panelId);
  const entry: Entry = {
    id: await id,
    entry_id: mintId(),
    role_ids: input.role_ids,
    emoji_name: input.emoji_name,
    emoji_id: input.emoji_id ?? null,
    text: input.text ?? null,
    description: input.description ?? null,
  };
  const { before, after } = await updatePanel(
    guildId,
    panelId,
    (panel) => {
      const max = MAX_ENTRIES[panel.panel_type];
      if (panel.entries.length >= max) throw unprocessable(`A ${panel.panel_type} panel holds at most ${max} entries; panel '${panelId}' is full.`);
      const same = panel.entries.find((e) => entryEmojiKey(e) === entryEmojiKey(entry));
      if (same)
        throw unprocessable(
          `Field 'emoji_name': entry '${same.entry_id}' of panel '${panelId}' already uses this emoji; each emoji can be used once per panel.`,
        );
      checkText(panel, entry);
      return { ...panel, entries: [...panel.entries, entry] };
    },
    read,
  );
  await publishChange(before, after, (current) => ({ ...current, entries: current.entries.filter((e) => e.entry_id !== entry.entry_id) }));
  return { entry: entryRecord(after, entry) };
}

/**
 * Replaces an entry's roles, text and description. Members who hold it keep
 * the roles they were given; claims from now on give the new roles.
 */
export async function editEntry(guildId: string, panelId: string, entryId: string, input: EditEntryInput) {
  const read = await loadEnabledPanel(guildId, panelId);
  const fields = { role_ids: input.role_ids, text: input.text ?? null, description: input.description ?? null };
  let old: Entry | undefined;
  const { before, after } = await updatePanel(
    guildId,
    panelId,
    (panel) => {
      old = findEntry(panel, entryId);
      checkText(panel, fields);
      return { ...panel, entries: panel.entries.map((e) => (e.entry_id === entryId ? { ...e, ...fields } : e)) };
    },
    read,
  );
  const previous = old!;
  await publishChange(before, after, (current) => ({
    ...current,
    entries: current.entries.map((e) => (e.entry_id === entryId ? previous : e)),
  }));
  return { entry: entryRecord(after, findEntry(after, entryId)) };
}

/** A role change made while deleting an entry, to reverse if a later step fails. */
type Taken = { memberId: string; done: Awaited<ReturnType<typeof changeRoles>> };

/**
 * Deletes an entry: with remove_roles_from_users_on_entry_delete its roles
 * are first taken from every member holding it (a refusal changes nothing),
 * then the entry leaves the panel and the message (its reaction, or its
 * button or option), then the claims forget it.
 */
export async function deleteEntry(guildId: string, panelId: string, entryId: string) {
  const panel = await loadEnabledPanel(guildId, panelId);
  const entry = findEntry(panel, entryId);
  const takeRoles = panel.remove_roles_from_users_on_entry_delete;

  const taken: Taken[] = [];
  const giveBack = async () => {
    for (const { memberId, done } of taken) await undoRoleChanges(guildId, memberId, done);
  };
  if (takeRoles) {
    for (const claim of await listPanelClaims(guildId, panelId)) {
      if (!claim.entry_ids.includes(entryId)) continue;
      const { rolesToRemove } = dropEntry(panel.entries, claim.entry_ids, entryId);
      try {
        taken.push({ memberId: claim.member_id, done: await changeRoles(guildId, claim.member_id, [], rolesToRemove) });
      } catch (error) {
        await giveBack();
        throw error;
      }
    }
  }

  let change: { before: Panel; after: Panel };
  try {
    change = await updatePanel(
      guildId,
      panelId,
      (current) => {
        findEntry(current, entryId);
        return { ...current, entries: current.entries.filter((e) => e.entry_id !== entryId) };
      },
      panel,
    );
    const index = panel.entries.indexOf(entry);
    await publishChange(change.before, change.after, (current) => ({
      ...current,
      entries: [...current.entries.slice(0, index), entry, ...current.entries.slice(index)],
    }));
  } catch (error) {
    await giveBack();
    throw error;
  }

  await forgetEntry(change.before, entryId, takeRoles ? new Set(taken.map((t) => t.memberId)) : null);
  return { entry: entryRecord(panel, entry) };
}

/**
 * Removes a deleted entry from every claim holding it. `takeRolesFrom`:
 * null keeps members' roles; otherwise members not in it (they claimed the
 * entry while it was being deleted) lose its roles too.
 */
async function forgetEntry(panel: Panel, entryId: string, takeRolesFrom: Set<string> | null): Promise<void> {
  for (const listed of await listPanelClaims(panel.guild_id, panel.panel_id)) {
    // The listing was a consistent read: it serves as the first read of each claim.
    let claim: Claim | null = listed;
    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
      if (attempt > 0) claim = await getClaim(panel.guild_id, panel.panel_id, listed.member_id);
      if (!claim?.entry_ids.includes(entryId)) break;
      const t = dropEntry(panel.entries, claim.entry_ids, entryId);
      const memberId = listed.member_id;
      if (takeRolesFrom && !takeRolesFrom.has(memberId)) {
        takeRolesFrom.add(memberId);
        await changeRoles(panel.guild_id, memberId, [], t.rolesToRemove).catch((error: unknown) => {
          log('warn', 'could not take the roles of a deleted entry', { member_id: memberId, error: errorField(error) });
        });
      }
      if (await writeClaim(panel.guild_id, panel.panel_id, memberId, t.held, claim)) break;
    }
  }
}

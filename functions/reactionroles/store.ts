/**
 * The reaction-roles module's items and the operations on them (through
 * its entities). Items live in the guild's partition:
 *
 * | item    | sk                                   | gsi1pk                       | gsi1sk                |
 * |---------|--------------------------------------|------------------------------|-----------------------|
 * | panel   | `RR#PANEL#<panel_id>` (with entries) |                              |                       |
 * | message | `RR#MSG#<channel_id>#<message_id>`   |                              |                       |
 * | claim   | `RR#CLAIM#<panel_id>#<member_id>`    | `RR#MEMBER#<guild>#<member>` | `RR#CLAIM#<panel_id>` |
 *
 * The message item points at the panel on that message: a check finds its
 * panel by a strongly consistent read of a key it can compute, and a
 * deleted channel's panels by a consistent query of its prefix (an index
 * is eventually consistent and could miss a panel posted a moment ago).
 * gsi1 only lists a member's claims (privacy).
 * Each invariant is one item under a condition: one panel per message (the
 * message item), a panel's entries in the panel item (`version`), a
 * member's entries of one panel in the claim item (`version`, a random
 * token so a deleted and re-created claim never matches an old read).
 */
import { getNamed } from '#shared/db/batch.js';
import { type Item, entity, partition } from '#shared/db/entity.js';
import { mintId } from '#shared/ids.js';
import { guildKey } from '#shared/modules/store.js';
import type { Claim, Entry, Panel, PanelType } from './model.js';

const inGuild = (f: { guildId: string }) => guildKey(f.guildId);

export const PanelEntity = entity({
  name: 'reactionrole_panel',
  prefix: 'RR#PANEL#',
  pk: inGuild,
  sk: (f: { guildId: string; panelId: string }) => [f.panelId],
  parse: (item): Panel => ({
    id: Number(item.id),
    guild_id: String(item.guild_id),
    panel_id: String(item.panel_id),
    panel_type: item.panel_type as PanelType,
    channel_id: String(item.channel_id),
    message_id: String(item.message_id),
    is_service_message: item.is_service_message === true,
    message_content: item.message_content === null || item.message_content === undefined ? null : String(item.message_content),
    message_is_embed: item.message_is_embed === true,
    limit_roles_to_one: item.limit_roles_to_one === true,
    supports_remove: item.supports_remove === true,
    keep_counter_at_one: item.keep_counter_at_one === true,
    delete_unrelated_emoji_reactions: item.delete_unrelated_emoji_reactions === true,
    remove_roles_from_users_on_entry_delete: item.remove_roles_from_users_on_entry_delete === true,
    created_at: String(item.created_at),
    entries: item.entries as Entry[],
    version: Number(item.version),
  }),
});

/** The message a panel is on -> its `panel_id`. */
export const MessageEntity = entity({
  name: 'reactionrole_message',
  prefix: 'RR#MSG#',
  pk: inGuild,
  sk: (f: { guildId: string; channelId: string; messageId: string }) => [f.channelId, f.messageId],
  parse: (item) => String(item.panel_id),
});

const memberIndexKey = partition<[guildId: string, memberId: string]>('RR#MEMBER#');
const CLAIM_PREFIX = 'RR#CLAIM#';

/** A member's entries of one panel; gsi1 lists a member's claims (`RR#MEMBER#<guild>#<member>`, `RR#CLAIM#<panel_id>`). */
export const ClaimEntity = entity({
  name: 'reactionrole_claim',
  prefix: CLAIM_PREFIX,
  pk: inGuild,
  sk: (f: { guildId: string; panelId: string; memberId: string }) => [f.panelId, f.memberId],
  parse: (item): Claim => ({
    guild_id: String(item.guild_id),
    panel_id: String(item.panel_id),
    member_id: String(item.member_id),
    entry_ids: item.entry_ids as string[],
    version: String(item.version),
  }),
  indexes: { gsi1: { pk: (f: { guildId: string; memberId: string }) => memberIndexKey(f.guildId, f.memberId), prefix: CLAIM_PREFIX } },
});

export const panelOf = PanelEntity.parse;

type PanelPlace = Pick<Panel, 'guild_id' | 'panel_id' | 'channel_id' | 'message_id'>;
const panelFields = (panel: Pick<Panel, 'guild_id' | 'panel_id'>) => ({ guildId: panel.guild_id, panelId: panel.panel_id });
const messageFields = (panel: Pick<Panel, 'guild_id' | 'channel_id' | 'message_id'>) => ({
  guildId: panel.guild_id,
  channelId: panel.channel_id,
  messageId: panel.message_id,
});
const claimFields = (claim: Pick<Claim, 'guild_id' | 'panel_id' | 'member_id'>) => ({
  guildId: claim.guild_id,
  panelId: claim.panel_id,
  memberId: claim.member_id,
});

// ---- panels ---------------------------------------------------------------

export const getPanel = (guildId: string, panelId: string) => PanelEntity.get({ guildId, panelId });

/** A panel and a member's claim on it, in one consistent batch read. */
export async function getPanelAndClaim(guildId: string, panelId: string, memberId: string): Promise<{ panel: Panel | null; claim: Claim | null }> {
  const found = await getNamed({ panel: PanelEntity.key({ guildId, panelId }), claim: ClaimEntity.key({ guildId, panelId, memberId }) });
  return { panel: found.panel && panelOf(found.panel), claim: found.claim && ClaimEntity.parse(found.claim) };
}

/** Every panel of a guild, in no particular order (eventually consistent: a listing decides nothing). */
export const listPanelItems = (guildId: string) => PanelEntity.query({ guildId }, { consistent: false });

/**
 * Every panel of a channel: its message items, then their panels, all read
 * strongly consistently. A message item whose panel is gone counts as no panel.
 */
export async function findChannelPanels(guildId: string, channelId: string): Promise<Panel[]> {
  const panelIds = await MessageEntity.query({ guildId }, { under: [channelId] });
  const panels = await Promise.all(panelIds.map((panelId) => getPanel(guildId, panelId)));
  return panels.filter((panel): panel is Panel => panel !== null);
}

/**
 * Stores a new panel; false when its message already is another panel's.
 * The message item is claimed first (one panel per message); one left by a
 * panel that no longer exists (a crash between the two writes) is taken over.
 */
export async function insertPanel(panel: Panel): Promise<boolean> {
  if (!(await claimMessage(panel))) return false;
  if (await PanelEntity.put(panelFields(panel), panel, { ifAbsent: true })) return true;
  await releaseMessage(panel);
  return false;
}

async function claimMessage(panel: Panel): Promise<boolean> {
  const fields = messageFields(panel);
  const pointer = { panel_id: panel.panel_id };
  if (await MessageEntity.put(fields, pointer, { ifAbsent: true })) return true;
  const held = await MessageEntity.get(fields);
  if (held === null) return MessageEntity.put(fields, pointer, { ifAbsent: true });
  if (await getPanel(panel.guild_id, held)) return false;
  return MessageEntity.put(fields, pointer, { condition: { panel_id: held } });
}

/** Drops a panel's message item if it still names that panel. */
async function releaseMessage(panel: PanelPlace): Promise<void> {
  await MessageEntity.delete(messageFields(panel), { condition: { panel_id: panel.panel_id } });
}

/**
 * Replaces a panel read at `panel.version`, as `version + 1`. Answers the
 * stored panel, or null when another write came first (or it was deleted).
 */
export async function replacePanel(panel: Panel): Promise<Panel | null> {
  const next: Panel = { ...panel, version: panel.version + 1 };
  const ok = await PanelEntity.put(panelFields(next), next, { condition: { version: panel.version } });
  return ok ? next : null;
}

/** Deletes a panel item; answers what it held, or null when it was already gone. */
export async function deletePanelItem(guildId: string, panelId: string): Promise<Panel | null> {
  const panel = await PanelEntity.delete({ guildId, panelId }, { returnOld: true });
  if (panel) await releaseMessage(panel);
  return panel;
}

// ---- claims ---------------------------------------------------------------

export const getClaim = (guildId: string, panelId: string, memberId: string) => ClaimEntity.get({ guildId, panelId, memberId });

/** A claim's attributes as stored: the record, and its keys in the member index (privacy). */
const claimAttributes = (claim: Claim) => ({
  ...claim,
  gsi1pk: memberIndexKey(claim.guild_id, claim.member_id),
  gsi1sk: `${ClaimEntity.prefix}${claim.panel_id}`,
});

/** A claim's item, listed under its member in the index (privacy). */
export const claimItem = (claim: Claim): Item => ClaimEntity.item(claimFields(claim), claimAttributes(claim));

/**
 * Sets the entries a member holds on a panel, if the claim is still the
 * one read (`read` null: there was none). No entries deletes the claim.
 * Answers false when another write came first.
 */
export async function writeClaim(guildId: string, panelId: string, memberId: string, entryIds: string[], read: Claim | null): Promise<boolean> {
  const fields = { guildId, panelId, memberId };
  if (entryIds.length === 0) return read ? ClaimEntity.delete(fields, { condition: { version: read.version } }) : true;
  const claim = { guild_id: guildId, panel_id: panelId, member_id: memberId, entry_ids: entryIds, version: mintId() };
  return ClaimEntity.put(fields, claimAttributes(claim), read ? { condition: { version: read.version } } : { ifAbsent: true });
}

/** Every claim on a panel. */
export const listPanelClaims = (guildId: string, panelId: string) => ClaimEntity.query({ guildId }, { under: [panelId] });

/** Every claim of a member in a guild (through the index). */
export const listMemberClaims = (guildId: string, memberId: string) => ClaimEntity.index('gsi1').query({ guildId, memberId });

// ---- bulk -----------------------------------------------------------------

/** Every item of the module in a guild: panels and claims (what tests look at). */
export async function listModuleItems(guildId: string): Promise<{ panels: Panel[]; claims: Claim[] }> {
  const [panels, claims] = await Promise.all([PanelEntity.query({ guildId }), ClaimEntity.query({ guildId })]);
  return { panels, claims };
}

/** The IDs of the guild's panels, read strongly consistently (which claims still have a panel): their IDs only, never their entries. */
export async function livePanelIds(guildId: string): Promise<Set<string>> {
  const panels = await PanelEntity.query({ guildId }, { projection: ['panel_id'] });
  return new Set(panels.map((panel) => String(panel.panel_id)));
}

/** Every panel of a guild, read strongly consistently (the module delete). */
export const listPanelsConsistently = (guildId: string) => PanelEntity.query({ guildId });

/** The removal under way of claims whose panel is gone (behaviour §15): its cutoff and place. */
export const ClaimSweepEntity = entity({
  name: 'reactionrole_claim_sweep',
  prefix: 'RR#SWEEP',
  pk: inGuild,
  parse: (item) => item,
});

/** Deletes panels' items (with their message items) and claim items, unconditionally. */
export async function deleteAll(panels: PanelPlace[], claims: Pick<Claim, 'guild_id' | 'panel_id' | 'member_id'>[]): Promise<void> {
  await Promise.all([
    PanelEntity.deleteMany(panels.map(panelFields)),
    MessageEntity.deleteMany(panels.map(messageFields)),
    ClaimEntity.deleteMany(claims.map(claimFields)),
  ]);
}

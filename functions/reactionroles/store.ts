/**
 * The reaction-roles module's DynamoDB access: the only file issuing its
 * commands. Items live in the guild's partition:
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
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { deleteKeys, getNamed } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { conditional, isConditionFailed } from '#shared/db/errors.js';
import { queryAll } from '#shared/db/pagination.js';
import { type Item, entity, partition } from '#shared/db/entity.js';
import { tableName } from '#shared/db/table.js';
import { mintId } from '#shared/ids.js';
import { guildKey } from '#shared/modules/store.js';
import type { Claim, Entry, Panel, PanelType } from './model.js';

const GSI = 'gsi1';

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

/** A member's entries of one panel; gsi1 lists a member's claims. */
export const ClaimEntity = entity({
  name: 'reactionrole_claim',
  prefix: 'RR#CLAIM#',
  pk: inGuild,
  sk: (f: { guildId: string; panelId: string; memberId: string }) => [f.panelId, f.memberId],
  parse: (item): Claim => ({
    guild_id: String(item.guild_id),
    panel_id: String(item.panel_id),
    member_id: String(item.member_id),
    entry_ids: item.entry_ids as string[],
    version: String(item.version),
  }),
});
const memberIndexKey = partition<[guildId: string, memberId: string]>('RR#MEMBER#');

export const panelOf = PanelEntity.parse;

function panelItem(panel: Panel): Item {
  return PanelEntity.item({ guildId: panel.guild_id, panelId: panel.panel_id }, panel);
}

async function put(item: Item, condition: string, values?: Item): Promise<boolean> {
  return conditional(() =>
    db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: condition, ExpressionAttributeValues: values })),
  );
}

// ---- panels ---------------------------------------------------------------

export async function getPanel(guildId: string, panelId: string): Promise<Panel | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: PanelEntity.key({ guildId, panelId }), ConsistentRead: true }));
  return out.Item ? panelOf(out.Item) : null;
}

/** A panel and a member's claim on it, in one consistent batch read. */
export async function getPanelAndClaim(guildId: string, panelId: string, memberId: string): Promise<{ panel: Panel | null; claim: Claim | null }> {
  const found = await getNamed({ panel: PanelEntity.key({ guildId, panelId }), claim: ClaimEntity.key({ guildId, panelId, memberId }) });
  return { panel: found.panel && panelOf(found.panel), claim: found.claim && ClaimEntity.parse(found.claim) };
}

/** Every panel of a guild, in no particular order. */
export async function listPanels(guildId: string): Promise<Panel[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': PanelEntity.prefix },
  });
  return items.map(panelOf);
}

/**
 * Every panel of a channel: its message items, then their panels, all read
 * strongly consistently. A message item whose panel is gone counts as no panel.
 */
export async function findChannelPanels(guildId: string, channelId: string): Promise<Panel[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': MessageEntity.under(channelId) },
    ConsistentRead: true,
  });
  const panels = await Promise.all(items.map((item) => getPanel(guildId, MessageEntity.parse(item))));
  return panels.filter((panel): panel is Panel => panel !== null);
}

/**
 * Stores a new panel; false when its message already is another panel's.
 * The message item is claimed first (one panel per message); one left by a
 * panel that no longer exists (a crash between the two writes) is taken over.
 */
export async function insertPanel(panel: Panel): Promise<boolean> {
  if (!(await claimMessage(panel))) return false;
  if (await put(panelItem(panel), 'attribute_not_exists(pk)')) return true;
  await releaseMessage(panel);
  return false;
}

async function claimMessage(panel: Panel): Promise<boolean> {
  const key = MessageEntity.key({ guildId: panel.guild_id, channelId: panel.channel_id, messageId: panel.message_id });
  const item = MessageEntity.item({ guildId: panel.guild_id, channelId: panel.channel_id, messageId: panel.message_id }, { panel_id: panel.panel_id });
  if (await put(item, 'attribute_not_exists(pk)')) return true;
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  if (!out.Item) return put(item, 'attribute_not_exists(pk)');
  if (await getPanel(panel.guild_id, MessageEntity.parse(out.Item))) return false;
  return put(item, 'panel_id = :old', { ':old': out.Item.panel_id });
}

/** Drops a panel's message item if it still names that panel. */
async function releaseMessage(panel: Pick<Panel, 'guild_id' | 'panel_id' | 'channel_id' | 'message_id'>): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: MessageEntity.key({ guildId: panel.guild_id, channelId: panel.channel_id, messageId: panel.message_id }),
        ConditionExpression: 'panel_id = :p',
        ExpressionAttributeValues: { ':p': panel.panel_id },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

/**
 * Replaces a panel read at `panel.version`, as `version + 1`. Answers the
 * stored panel, or null when another write came first (or it was deleted).
 */
export async function replacePanel(panel: Panel): Promise<Panel | null> {
  const next: Panel = { ...panel, version: panel.version + 1 };
  const ok = await put(panelItem(next), 'version = :v', { ':v': panel.version });
  return ok ? next : null;
}

/** Deletes a panel item; answers what it held, or null when it was already gone. */
export async function deletePanel(guildId: string, panelId: string): Promise<Panel | null> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: PanelEntity.key({ guildId, panelId }), ReturnValues: 'ALL_OLD' }));
  if (!out.Attributes) return null;
  const panel = panelOf(out.Attributes);
  await releaseMessage(panel);
  return panel;
}

// ---- claims ---------------------------------------------------------------

export async function getClaim(guildId: string, panelId: string, memberId: string): Promise<Claim | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: ClaimEntity.key({ guildId, panelId, memberId }), ConsistentRead: true }));
  return out.Item ? ClaimEntity.parse(out.Item) : null;
}

/**
 * Sets the entries a member holds on a panel, if the claim is still the
 * one read (`read` null: there was none). No entries deletes the claim.
 * Answers false when another write came first.
 */
/** A claim's item, listed under its member in the index (privacy). */
export function claimItem(claim: Claim): Item {
  const { guild_id: guildId, panel_id: panelId, member_id: memberId } = claim;
  return { ...ClaimEntity.item({ guildId, panelId, memberId }, claim), gsi1pk: memberIndexKey(guildId, memberId), gsi1sk: `${ClaimEntity.prefix}${panelId}` };
}

export async function writeClaim(guildId: string, panelId: string, memberId: string, entryIds: string[], read: Claim | null): Promise<boolean> {
  const key = ClaimEntity.key({ guildId, panelId, memberId });
  if (entryIds.length === 0) {
    if (!read) return true;
    return conditional(() =>
      db().send(
        new DeleteCommand({ TableName: tableName(), Key: key, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': read.version } }),
      ),
    );
  }
  const item = claimItem({ guild_id: guildId, panel_id: panelId, member_id: memberId, entry_ids: entryIds, version: mintId() });
  return read ? put(item, 'version = :v', { ':v': read.version }) : put(item, 'attribute_not_exists(pk)');
}

/** Every claim on a panel. */
export async function listPanelClaims(guildId: string, panelId: string): Promise<Claim[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': ClaimEntity.under(panelId) },
    ConsistentRead: true,
  });
  return items.map(ClaimEntity.parse);
}

/** Every claim of a member in a guild (through the index). */
export async function listMemberClaims(guildId: string, memberId: string): Promise<Claim[]> {
  const items = await queryAll({
    IndexName: GSI,
    KeyConditionExpression: 'gsi1pk = :m',
    ExpressionAttributeValues: { ':m': memberIndexKey(guildId, memberId) },
  });
  return items.map(ClaimEntity.parse);
}

// ---- bulk -----------------------------------------------------------------

/** Every item of the module in a guild: panels and claims (what tests look at). */
export async function listModuleItems(guildId: string): Promise<{ panels: Panel[]; claims: Claim[] }> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': 'RR#' },
    ConsistentRead: true,
  });
  return {
    panels: items.filter((i) => i.entity === PanelEntity.name).map(PanelEntity.parse),
    claims: items.filter((i) => i.entity === ClaimEntity.name).map(ClaimEntity.parse),
  };
}

/** The IDs of the guild's panels, read strongly consistently (which claims still have a panel). */
export async function livePanelIds(guildId: string): Promise<Set<string>> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': PanelEntity.prefix },
    ProjectionExpression: 'panel_id',
    ConsistentRead: true,
  });
  return new Set(items.map((item) => String(item.panel_id)));
}

/** Every panel of a guild, read strongly consistently (the module delete). */
export async function listPanelsConsistently(guildId: string): Promise<Panel[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': PanelEntity.prefix },
    ConsistentRead: true,
  });
  return items.map(panelOf);
}

/** The removal under way of claims whose panel is gone (behaviour §15): its cutoff and place. */
export const ClaimSweepEntity = entity({
  name: 'reactionrole_claim_sweep',
  prefix: 'RR#SWEEP',
  pk: inGuild,
  parse: (item) => item,
});

/** Deletes panels' items (with their message items) and claim items, unconditionally. */
export function deleteAll(
  panels: Pick<Panel, 'guild_id' | 'panel_id' | 'channel_id' | 'message_id'>[],
  claims: Pick<Claim, 'guild_id' | 'panel_id' | 'member_id'>[],
): Promise<void> {
  return deleteKeys([
    ...panels.flatMap((p) => [
      PanelEntity.key({ guildId: p.guild_id, panelId: p.panel_id }),
      MessageEntity.key({ guildId: p.guild_id, channelId: p.channel_id, messageId: p.message_id }),
    ]),
    ...claims.map((c) => ClaimEntity.key({ guildId: c.guild_id, panelId: c.panel_id, memberId: c.member_id })),
  ]);
}

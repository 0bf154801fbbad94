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
import { DeleteCommand, GetCommand, PutCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { deleteKeys, getNamed } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { conditional, isConditionFailed } from '#shared/db/errors.js';
import { queryAll } from '#shared/db/pagination.js';
import { tableName } from '#shared/db/table.js';
import { mintId } from '#shared/ids.js';
import { guildKey } from '#shared/modules/store.js';
import type { Claim, Panel } from './model.js';

type Item = Record<string, NativeAttributeValue>;
type Key = { pk: string; sk: string };

const PANEL_PREFIX = 'RR#PANEL#';
const CLAIM_PREFIX = 'RR#CLAIM#';
/** Every item of this module in a guild's partition starts with this. */
const MODULE_PREFIX = 'RR#';
const PANEL_ENTITY = 'reactionrole_panel';
const CLAIM_ENTITY = 'reactionrole_claim';
const MESSAGE_ENTITY = 'reactionrole_message';
const GSI = 'gsi1';

export const panelKey = (guildId: string, panelId: string): Key => ({ pk: guildKey(guildId), sk: `${PANEL_PREFIX}${panelId}` });
const claimsOfPanelPrefix = (panelId: string) => `${CLAIM_PREFIX}${panelId}#`;
const claimKey = (guildId: string, panelId: string, memberId: string): Key => ({
  pk: guildKey(guildId),
  sk: `${claimsOfPanelPrefix(panelId)}${memberId}`,
});
const MESSAGE_PREFIX = 'RR#MSG#';
const messagesOfChannelPrefix = (channelId: string) => `${MESSAGE_PREFIX}${channelId}#`;
export const messageKey = (guildId: string, channelId: string, messageId: string): Key => ({
  pk: guildKey(guildId),
  sk: `${messagesOfChannelPrefix(channelId)}${messageId}`,
});
const memberIndexKey = (guildId: string, memberId: string) => `RR#MEMBER#${guildId}#${memberId}`;
const memberIndexSort = (panelId: string) => `${CLAIM_PREFIX}${panelId}`;

const BOOKKEEPING = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'entity'] as const;

function strip(item: Item): Item {
  const copy = { ...item };
  for (const key of BOOKKEEPING) delete copy[key];
  return copy;
}

export const panelOf = (item: Item) => strip(item) as Panel;
const claimOf = (item: Item) => strip(item) as Claim;

function panelItem(panel: Panel): Item {
  return {
    ...panelKey(panel.guild_id, panel.panel_id),
    entity: PANEL_ENTITY,
    ...panel,
  };
}

async function put(item: Item, condition: string, values?: Item): Promise<boolean> {
  return conditional(() =>
    db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: condition, ExpressionAttributeValues: values })),
  );
}

// ---- panels ---------------------------------------------------------------

export async function getPanel(guildId: string, panelId: string): Promise<Panel | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: panelKey(guildId, panelId), ConsistentRead: true }));
  return out.Item ? panelOf(out.Item) : null;
}

/** A panel and a member's claim on it, in one consistent batch read. */
export async function getPanelAndClaim(guildId: string, panelId: string, memberId: string): Promise<{ panel: Panel | null; claim: Claim | null }> {
  const found = await getNamed({ panel: panelKey(guildId, panelId), claim: claimKey(guildId, panelId, memberId) });
  return { panel: found.panel && panelOf(found.panel), claim: found.claim && claimOf(found.claim) };
}

/** Every panel of a guild, in no particular order. */
export async function listPanels(guildId: string): Promise<Panel[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': PANEL_PREFIX },
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
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': messagesOfChannelPrefix(channelId) },
    ConsistentRead: true,
  });
  const panels = await Promise.all(items.map((item) => getPanel(guildId, String(item.panel_id))));
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
  const key = messageKey(panel.guild_id, panel.channel_id, panel.message_id);
  const item: Item = { ...key, entity: MESSAGE_ENTITY, panel_id: panel.panel_id };
  if (await put(item, 'attribute_not_exists(pk)')) return true;
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  if (!out.Item) return put(item, 'attribute_not_exists(pk)');
  if (await getPanel(panel.guild_id, String(out.Item.panel_id))) return false;
  return put(item, 'panel_id = :old', { ':old': out.Item.panel_id });
}

/** Drops a panel's message item if it still names that panel. */
async function releaseMessage(panel: Pick<Panel, 'guild_id' | 'panel_id' | 'channel_id' | 'message_id'>): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: messageKey(panel.guild_id, panel.channel_id, panel.message_id),
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
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: panelKey(guildId, panelId), ReturnValues: 'ALL_OLD' }));
  if (!out.Attributes) return null;
  const panel = panelOf(out.Attributes);
  await releaseMessage(panel);
  return panel;
}

// ---- claims ---------------------------------------------------------------

export async function getClaim(guildId: string, panelId: string, memberId: string): Promise<Claim | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: claimKey(guildId, panelId, memberId), ConsistentRead: true }));
  return out.Item ? claimOf(out.Item) : null;
}

/**
 * Sets the entries a member holds on a panel, if the claim is still the
 * one read (`read` null: there was none). No entries deletes the claim.
 * Answers false when another write came first.
 */
export async function writeClaim(guildId: string, panelId: string, memberId: string, entryIds: string[], read: Claim | null): Promise<boolean> {
  const key = claimKey(guildId, panelId, memberId);
  if (entryIds.length === 0) {
    if (!read) return true;
    return conditional(() =>
      db().send(
        new DeleteCommand({ TableName: tableName(), Key: key, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': read.version } }),
      ),
    );
  }
  const claim: Claim = { guild_id: guildId, panel_id: panelId, member_id: memberId, entry_ids: entryIds, version: mintId() };
  const item: Item = {
    ...key,
    gsi1pk: memberIndexKey(guildId, memberId),
    gsi1sk: memberIndexSort(panelId),
    entity: CLAIM_ENTITY,
    ...claim,
  };
  return read ? put(item, 'version = :v', { ':v': read.version }) : put(item, 'attribute_not_exists(pk)');
}

/** Every claim on a panel. */
export async function listPanelClaims(guildId: string, panelId: string): Promise<Claim[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': claimsOfPanelPrefix(panelId) },
    ConsistentRead: true,
  });
  return items.map(claimOf);
}

/** Every claim of a member in a guild (through the index). */
export async function listMemberClaims(guildId: string, memberId: string): Promise<Claim[]> {
  const items = await queryAll({
    IndexName: GSI,
    KeyConditionExpression: 'gsi1pk = :m',
    ExpressionAttributeValues: { ':m': memberIndexKey(guildId, memberId) },
  });
  return items.map(claimOf);
}

// ---- bulk -----------------------------------------------------------------

/** Every item of the module in a guild: panels and claims. */
export async function listModuleItems(guildId: string): Promise<{ panels: Panel[]; claims: Claim[] }> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': MODULE_PREFIX },
    ConsistentRead: true,
  });
  return {
    panels: items.filter((i) => i.entity === PANEL_ENTITY).map(panelOf),
    claims: items.filter((i) => i.entity === CLAIM_ENTITY).map(claimOf),
  };
}

/** Deletes panels' items (with their message items) and claim items, unconditionally. */
export function deleteAll(
  panels: Pick<Panel, 'guild_id' | 'panel_id' | 'channel_id' | 'message_id'>[],
  claims: Pick<Claim, 'guild_id' | 'panel_id' | 'member_id'>[],
): Promise<void> {
  return deleteKeys([
    ...panels.flatMap((p) => [panelKey(p.guild_id, p.panel_id), messageKey(p.guild_id, p.channel_id, p.message_id)]),
    ...claims.map((c) => claimKey(c.guild_id, c.panel_id, c.member_id)),
  ]);
}

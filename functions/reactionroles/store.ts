/**
 * The reaction-roles module's DynamoDB access: the only file issuing its
 * commands. Items live in the guild's partition:
 *
 * | item  | sk                                   | gsi1pk                          | gsi1sk                    |
 * |-------|--------------------------------------|---------------------------------|---------------------------|
 * | panel | `RR#PANEL#<panel_id>` (with entries) | `RR#CHANNEL#<guild>#<channel>`  | `RR#MESSAGE#<message_id>` |
 * | claim | `RR#CLAIM#<panel_id>#<member_id>`    | `RR#MEMBER#<guild>#<member>`    | `RR#CLAIM#<panel_id>`     |
 *
 * gsi1 finds the panel of a message (check, check-delete) and every panel
 * of a channel (a deleted channel); it finds a member's claims (privacy).
 * Each invariant is one item under a condition: a panel's entries in the
 * panel item (`version`), a member's entries of one panel in the claim item
 * (`version`, a random token so a deleted and re-created claim never
 * matches an old read).
 */
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  type NativeAttributeValue,
} from '@aws-sdk/lib-dynamodb';
import { deleteKeys } from '../../shared/db/batch.js';
import { db } from '../../shared/db/client.js';
import { isConditionFailed } from '../../shared/db/errors.js';
import { queryAll } from '../../shared/db/pagination.js';
import { tableName } from '../../shared/db/table.js';
import { mintId } from '../../shared/ids.js';
import { guildKey } from '../../shared/modules/store.js';
import type { Claim, Panel } from './model.js';

type Item = Record<string, NativeAttributeValue>;
type Key = { pk: string; sk: string };

const PANEL_PREFIX = 'RR#PANEL#';
const CLAIM_PREFIX = 'RR#CLAIM#';
/** Every item of this module in a guild's partition starts with this. */
const MODULE_PREFIX = 'RR#';
const PANEL_ENTITY = 'reactionrole_panel';
const CLAIM_ENTITY = 'reactionrole_claim';
const GSI = 'gsi1';

const panelKey = (guildId: string, panelId: string): Key => ({ pk: guildKey(guildId), sk: `${PANEL_PREFIX}${panelId}` });
const claimsOfPanelPrefix = (panelId: string) => `${CLAIM_PREFIX}${panelId}#`;
const claimKey = (guildId: string, panelId: string, memberId: string): Key => ({
  pk: guildKey(guildId),
  sk: `${claimsOfPanelPrefix(panelId)}${memberId}`,
});
const channelIndexKey = (guildId: string, channelId: string) => `RR#CHANNEL#${guildId}#${channelId}`;
const messageIndexSort = (messageId: string) => `RR#MESSAGE#${messageId}`;
const memberIndexKey = (guildId: string, memberId: string) => `RR#MEMBER#${guildId}#${memberId}`;
const memberIndexSort = (panelId: string) => `${CLAIM_PREFIX}${panelId}`;

const BOOKKEEPING = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'entity'] as const;

function strip(item: Item): Item {
  const copy = { ...item };
  for (const key of BOOKKEEPING) delete copy[key];
  return copy;
}

const panelOf = (item: Item) => strip(item) as Panel;
const claimOf = (item: Item) => strip(item) as Claim;

function panelItem(panel: Panel): Item {
  return {
    ...panelKey(panel.guild_id, panel.panel_id),
    gsi1pk: channelIndexKey(panel.guild_id, panel.channel_id),
    gsi1sk: messageIndexSort(panel.message_id),
    entity: PANEL_ENTITY,
    ...panel,
  };
}

async function put(item: Item, condition: string, values?: Item): Promise<boolean> {
  try {
    await db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: condition, ExpressionAttributeValues: values }));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

// ---- panels ---------------------------------------------------------------

export async function getPanel(guildId: string, panelId: string): Promise<Panel | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: panelKey(guildId, panelId), ConsistentRead: true }));
  return out.Item ? panelOf(out.Item) : null;
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
 * The panels on a message, or every panel of a channel when `messageId` is
 * null. Reads the index, which DynamoDB keeps eventually consistent.
 */
export async function findPanels(guildId: string, channelId: string, messageId: string | null): Promise<Panel[]> {
  const values: Item = { ':c': channelIndexKey(guildId, channelId) };
  let condition = 'gsi1pk = :c';
  if (messageId !== null) {
    condition += ' AND gsi1sk = :m';
    values[':m'] = messageIndexSort(messageId);
  }
  const items = await queryAll({ IndexName: GSI, KeyConditionExpression: condition, ExpressionAttributeValues: values });
  return items.map(panelOf);
}

/** Stores a new panel; false when its ID is taken (it never is: IDs are random). */
export function insertPanel(panel: Panel): Promise<boolean> {
  return put(panelItem(panel), 'attribute_not_exists(pk)');
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
  return out.Attributes ? panelOf(out.Attributes) : null;
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
    try {
      await db().send(
        new DeleteCommand({ TableName: tableName(), Key: key, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': read.version } }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
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

/** Deletes panels' items and claim items, unconditionally. */
export function deleteAll(panels: Pick<Panel, 'guild_id' | 'panel_id'>[], claims: Pick<Claim, 'guild_id' | 'panel_id' | 'member_id'>[]): Promise<void> {
  return deleteKeys([
    ...panels.map((p) => panelKey(p.guild_id, p.panel_id)),
    ...claims.map((c) => claimKey(c.guild_id, c.panel_id, c.member_id)),
  ]);
}

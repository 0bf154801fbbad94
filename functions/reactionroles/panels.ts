/**
 * Panel use cases: list, create (post a message or register one), get,
 * edit, delete.
 */
import type { PageQuery } from '#shared/db/entity.js';
import { pageWithin } from '#shared/db/page.js';
import { unprocessable } from '#shared/errors.js';
import { mintId } from '#shared/ids.js';
import { recordIdAhead } from '#shared/db/record-ids.js';
import { requireEnabled, requireEnabledWhile } from '#shared/modules/state.js';
import { MODULE, type Panel, type PanelSettings, type PanelType, entryRecords, newestFirst, panelRecord } from './model.js';
import { discardMessage, findMessage, postPanelMessage, removePanelMessage } from './panel-message.js';
import { loadEnabledPanel, publishChange, updatePanel } from './panel-updates.js';
import { entriesProblem } from './rules.js';
import { deleteAll, deletePanelItem, insertPanel, listPanelClaims, listPanelItems } from './store.js';

/** The settings of a create or edit request; the emoji-only ones are null on other types. */
interface SettingsInput {
  panel_type: PanelType;
  limit_roles_to_one: boolean;
  supports_remove: boolean;
  remove_roles_from_users_on_entry_delete: boolean;
  keep_counter_at_one?: boolean | null;
  delete_unrelated_emoji_reactions?: boolean | null;
}

export interface CreatePanelInput extends SettingsInput {
  is_register: boolean;
  channel_id: string;
  register_message_id?: string | null;
  is_embed?: boolean | null;
  content?: string | null;
}

export interface EditPanelInput extends SettingsInput {
  message_content?: string | null;
  message_is_embed: boolean;
}

/** The stored settings: keep_counter_at_one and delete_unrelated_emoji_reactions only mean something on emoji panels. */
function settingsOf(input: SettingsInput): PanelSettings {
  const emoji = input.panel_type === 'emoji';
  return {
    panel_type: input.panel_type,
    limit_roles_to_one: input.limit_roles_to_one,
    supports_remove: input.supports_remove,
    remove_roles_from_users_on_entry_delete: input.remove_roles_from_users_on_entry_delete,
    keep_counter_at_one: emoji ? Boolean(input.keep_counter_at_one) : false,
    delete_unrelated_emoji_reactions: emoji ? Boolean(input.delete_unrelated_emoji_reactions) : false,
  };
}

/** A page of the guild's panels, newest first (behaviour §3.6; a page ends early rather than pass 1 MiB, §15). */
export async function listPanels(guildId: string, query: PageQuery) {
  const [, stored] = await requireEnabledWhile(guildId, MODULE, () => listPanelItems(guildId));
  const { items, ...pageFields } = await pageWithin(stored.sort(newestFirst).map(panelRecord), query, { guildId, family: 'reactionroles/panels', filter: {} });
  return { panels: items, ...pageFields };
}

export async function getPanel(guildId: string, panelId: string) {
  return { panel: panelRecord(await loadEnabledPanel(guildId, panelId)) };
}

/**
 * Creates a panel. A new message is posted first (the panel stores its ID);
 * when storing then fails, the message is deleted again. Registering checks
 * that the message exists in the channel and is not a panel yet.
 */
export async function createPanel(guildId: string, input: CreatePanelInput) {
  const id = recordIdAhead('reactionroles.panel');
  await requireEnabled(guildId, MODULE);
  const base = {
    guild_id: guildId,
    panel_id: mintId(),
    channel_id: input.channel_id,
    ...settingsOf(input),
    entries: [],
    version: 1,
  };

  if (input.is_register) {
    const messageId = input.register_message_id!;
    if (!(await findMessage(input.channel_id, messageId))) {
      throw unprocessable(`Field 'register_message_id': channel ${input.channel_id} has no message ${messageId} to register.`);
    }
    const panel: Panel = {
      ...base,
      id: await id,
      message_id: messageId,
      is_service_message: false,
      message_content: null,
      message_is_embed: false,
      created_at: new Date().toISOString(),
    };
    // One panel per message: the store claims the message with a condition, so two registrations at once give one panel.
    if (!(await insertPanel(panel))) {
      throw unprocessable(`Field 'register_message_id': message ${messageId} already is a reaction-role panel.`);
    }
    return { panel: panelRecord(panel) };
  }

  const content = input.content!;
  const isEmbed = input.is_embed!;
  // The id before the message: a failure to get one leaves no message behind.
  const panelNumber = await id;
  const message = await postPanelMessage({ ...base, message_content: content, message_is_embed: isEmbed });
  const panel: Panel = {
    ...base,
    id: panelNumber,
    message_id: message.id,
    is_service_message: true,
    message_content: content,
    message_is_embed: isEmbed,
    created_at: new Date().toISOString(),
  };
  try {
    if (!(await insertPanel(panel))) throw new Error(`the new message ${message.id} already is a panel`);
  } catch (error) {
    await discardMessage(message);
    throw error;
  }
  return { panel: panelRecord(panel) };
}

/** The rules an edit must keep that depend on the stored panel. */
function checkEdit(panel: Panel, input: EditPanelInput): void {
  if (!panel.is_service_message) {
    if (input.panel_type !== 'emoji') {
      throw unprocessable(`Field 'panel_type' must be "emoji": panel '${panel.panel_id}' is a registered message, which can only carry reactions.`);
    }
    if (input.message_content != null) {
      throw unprocessable(
        `Field 'message_content' must be null: the message of panel '${panel.panel_id}' was not written by the service, so its text cannot be changed.`,
      );
    }
  } else if (input.message_content == null) {
    throw unprocessable(`Field 'message_content' is required: panel '${panel.panel_id}' shows a message the service wrote.`);
  }
  const problem = entriesProblem(input.panel_type, panel.entries);
  if (problem) throw unprocessable(`Cannot make panel '${panel.panel_id}' a ${input.panel_type} panel: ${problem}`);
}

/**
 * Changes a panel's settings, type and (for the service's own message) its
 * text. The message follows: text and components are edited, the service's
 * reactions appear or go when the type switches to or from emoji.
 */
export async function editPanel(guildId: string, panelId: string, input: EditPanelInput) {
  const read = await loadEnabledPanel(guildId, panelId);
  const change = (panel: Panel): Panel => {
    checkEdit(panel, input);
    const text = panel.is_service_message ? { message_content: input.message_content!, message_is_embed: input.message_is_embed } : {};
    return { ...panel, ...settingsOf(input), ...text };
  };
  const { before, after } = await updatePanel(guildId, panelId, change, read);
  await publishChange(before, after, (current) => ({
    ...current,
    ...settingsOf(before),
    message_content: before.message_content,
    message_is_embed: before.message_is_embed,
  }));
  return { panel: panelRecord(after) };
}

/**
 * Deletes a panel and its entries: first off the platform (the service's
 * message deleted, or its reactions taken off a registered message), then
 * from the table with the claims on it. Members keep roles they were given.
 */
export async function deletePanel(guildId: string, panelId: string) {
  const panel = await loadEnabledPanel(guildId, panelId);
  await removePanelMessage(panel);
  const deleted = (await deletePanelItem(guildId, panelId)) ?? panel;
  await deleteAll([], await listPanelClaims(guildId, panelId));
  return { panel: panelRecord(deleted), entries: entryRecords(deleted) };
}

/**
 * What a reaction-role panel is, as the use cases see it, and the records
 * the API answers (behaviour §6: exactly these fields).
 */

/** This module's name, as module state and paths know it. */
export const MODULE = 'reactionroles';

export const PANEL_TYPES = ['emoji', 'button', 'dropdown'] as const;
export type PanelType = (typeof PANEL_TYPES)[number];

/** One entry of a panel: an emoji (and for buttons and dropdowns a label) that grants roles. */
export interface Entry {
  id: number;
  entry_id: string;
  role_ids: string[];
  emoji_name: string;
  emoji_id: string | null;
  text: string | null;
  description: string | null;
}

/** How a panel behaves when members interact with it. */
export interface PanelSettings {
  panel_type: PanelType;
  limit_roles_to_one: boolean;
  supports_remove: boolean;
  keep_counter_at_one: boolean;
  delete_unrelated_emoji_reactions: boolean;
  remove_roles_from_users_on_entry_delete: boolean;
}

/**
 * A panel with its entries, in the order they appear on the message. The
 * entries live inside the panel's item, so every rule that spans them (no
 * duplicate emoji, the platform's count limits, text for dropdowns) is
 * checked and written under one version.
 */
export interface Panel extends PanelSettings {
  id: number;
  guild_id: string;
  panel_id: string;
  channel_id: string;
  message_id: string;
  is_service_message: boolean;
  message_content: string | null;
  message_is_embed: boolean;
  created_at: string;
  entries: Entry[];
  /** Bumped by every write; a write names the version it read. */
  version: number;
}

/** The panel record of the API. */
export function panelRecord(panel: Panel) {
  return {
    id: panel.id,
    guild_id: panel.guild_id,
    panel_id: panel.panel_id,
    panel_type: panel.panel_type,
    channel_id: panel.channel_id,
    message_id: panel.message_id,
    is_service_message: panel.is_service_message,
    message_content: panel.message_content,
    message_is_embed: panel.message_is_embed,
    limit_roles_to_one: panel.limit_roles_to_one,
    supports_remove: panel.supports_remove,
    keep_counter_at_one: panel.keep_counter_at_one,
    delete_unrelated_emoji_reactions: panel.delete_unrelated_emoji_reactions,
    remove_roles_from_users_on_entry_delete: panel.remove_roles_from_users_on_entry_delete,
    created_at: panel.created_at,
  };
}

/** Newest panel first (behaviour §3.6); panels created in the same millisecond by record id. */
export const newestFirst = (a: Panel, b: Panel) => b.created_at.localeCompare(a.created_at) || b.id - a.id;

/** The entry record of the API. */
export function entryRecord(panel: Pick<Panel, 'guild_id' | 'panel_id'>, entry: Entry) {
  return {
    id: entry.id,
    guild_id: panel.guild_id,
    panel_id: panel.panel_id,
    entry_id: entry.entry_id,
    role_ids: [...entry.role_ids],
    emoji_name: entry.emoji_name,
    emoji_id: entry.emoji_id,
    text: entry.text,
    description: entry.description,
  };
}

export type PanelRecord = ReturnType<typeof panelRecord>;
export type EntryRecord = ReturnType<typeof entryRecord>;

/** Every entry record of a panel. */
export const entryRecords = (panel: Panel) => panel.entries.map((entry) => entryRecord(panel, entry));

/** Which member holds which entries of one panel; `version` guards every change. */
export interface Claim {
  guild_id: string;
  panel_id: string;
  member_id: string;
  entry_ids: string[];
  version: string;
}

/**
 * How a panel looks on the platform: its message text (plain or embed), its
 * buttons or dropdown built from the entries, and the sentence a member
 * reads after clicking. Pure.
 */
import { type ActionRow, type Button, ButtonStyle, ComponentType, type Embed, type PartialEmoji, type SelectOption } from '#shared/platform/types.js';
import type { Transition } from './claims.js';
import type { Entry, Panel } from './model.js';
import { parseEmbed } from './rules.js';

const BUTTONS_PER_ROW = 5;
const CUSTOM_ID_PREFIX = 'rr:';

/** The custom ID of an entry's button: it names the entry. */
export const buttonCustomId = (entryId: string) => `${CUSTOM_ID_PREFIX}${entryId}`;
/** The custom ID of a panel's dropdown; its option values are entry IDs. */
export const SELECT_CUSTOM_ID = `${CUSTOM_ID_PREFIX}select`;

/** The entry a button's custom ID names, or null when it is not one of ours. */
export function entryIdOfButton(customId: string): string | null {
  if (!customId.startsWith(CUSTOM_ID_PREFIX) || customId === SELECT_CUSTOM_ID) return null;
  return customId.slice(CUSTOM_ID_PREFIX.length) || null;
}

function emojiOf(entry: Entry): PartialEmoji {
  return entry.emoji_id ? { id: entry.emoji_id, name: entry.emoji_name } : { name: entry.emoji_name };
}

function button(entry: Entry): Button {
  const b: Button = { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: buttonCustomId(entry.entry_id), emoji: emojiOf(entry) };
  if (entry.text !== null) b.label = entry.text;
  return b;
}

function option(entry: Entry): SelectOption {
  const o: SelectOption = { label: entry.text ?? entry.emoji_name, value: entry.entry_id, emoji: emojiOf(entry) };
  if (entry.description !== null) o.description = entry.description;
  return o;
}

/** The components of a panel: rows of up to five buttons, one dropdown, or none (emoji panels). */
export function renderComponents(panel: Pick<Panel, 'panel_type' | 'limit_roles_to_one' | 'entries'>): ActionRow[] {
  const { entries } = panel;
  if (panel.panel_type === 'emoji' || entries.length === 0) return [];
  if (panel.panel_type === 'button') {
    const rows: ActionRow[] = [];
    for (let i = 0; i < entries.length; i += BUTTONS_PER_ROW) {
      rows.push({ type: ComponentType.ActionRow, components: entries.slice(i, i + BUTTONS_PER_ROW).map(button) });
    }
    return rows;
  }
  return [
    {
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.StringSelect,
          custom_id: SELECT_CUSTOM_ID,
          placeholder: panel.limit_roles_to_one ? 'Choose a role' : 'Choose your roles',
          // Zero lets a member deselect everything; the set chosen is what they want to hold.
          min_values: 0,
          max_values: panel.limit_roles_to_one ? 1 : entries.length,
          options: entries.map(option),
        },
      ],
    },
  ];
}

/**
 * The whole message of a service-created panel: its text and its
 * components. Used both to post it and to edit it (edits replace all three
 * parts, so a switch between plain text and embed leaves nothing behind).
 */
export function renderMessage(panel: Pick<Panel, 'panel_type' | 'limit_roles_to_one' | 'entries' | 'message_is_embed'> & { message_content: string }): {
  content: string;
  embeds: Embed[];
  components: ActionRow[];
} {
  const components = renderComponents(panel);
  if (!panel.message_is_embed) return { content: panel.message_content, embeds: [], components };
  const parsed = parseEmbed(panel.message_content);
  // Content was checked when it was stored; an embed that no longer parses is a bug, shown rather than hidden.
  if ('problem' in parsed) throw new Error(`stored embed of a panel does not parse: ${parsed.problem}`);
  return { content: '', embeds: [parsed.embed], components };
}

const mention = (roleId: string) => `<@&${roleId}>`;
const list = (roles: string[]) => roles.map(mention).join(', ');

const UNCHANGED_TEXT: Record<NonNullable<Transition['unchanged']>, string> = {
  already_held: 'Nothing changed: you already have the roles of this choice.',
  not_held: 'Nothing changed: you did not have the roles of this choice.',
  remove_not_supported: 'Nothing changed: this panel does not let you remove roles you claimed.',
  reaction_delete_ignored: 'Nothing changed.',
};

/** The sentence a member reads after interacting with a panel. */
export function describeTransition(t: Pick<Transition, 'rolesToAdd' | 'rolesToRemove' | 'unchanged' | 'claimed' | 'released'>): string {
  if (t.unchanged) return UNCHANGED_TEXT[t.unchanged];
  const parts: string[] = [];
  if (t.rolesToAdd.length) parts.push(`You received ${list(t.rolesToAdd)}.`);
  if (t.rolesToRemove.length) parts.push(`You no longer have ${list(t.rolesToRemove)}.`);
  if (!parts.length)
    parts.push(t.claimed.length ? 'Your choice was saved; you already had its roles.' : 'Your choice was removed; you keep roles other choices give you.');
  return parts.join(' ');
}

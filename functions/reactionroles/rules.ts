/**
 * The platform's limits and the panel rules that span several fields or
 * several entries (behaviour §3.6 and §7). Pure: each check answers the reason
 * of the first broken rule, or null.
 */
import type { Embed } from '#shared/platform/types.js';
import { type LimitBreak, MESSAGE_LIMITS, fitLimits } from '#shared/templates/limits.js';
import type { Entry, PanelType } from './model.js';

/** Most entries a panel of each type can show: reactions per message, components per message. */
export const MAX_ENTRIES: Record<PanelType, number> = { emoji: 20, button: 25, dropdown: 25 };
export const MAX_CONTENT = MESSAGE_LIMITS.content;
export const MAX_BUTTON_LABEL = 80;
export const MAX_OPTION_TEXT = 100;
/** An entry's roles; a member can hold at most 250 roles on the platform, a panel entry needs far fewer. */
export const MAX_ENTRY_ROLES = 25;

/**
 * The identity of an emoji inside a panel: a custom emoji by its ID, a
 * unicode emoji by its text without variation selectors (members' clients
 * send both `❤` and `❤️` for the same emoji).
 */
export function emojiKey(name: string, id: string | null): string {
  return id ? `id:${id}` : `u:${name.replace(/\uFE0F/g, '')}`;
}

export const entryEmojiKey = (entry: Pick<Entry, 'emoji_name' | 'emoji_id'>) => emojiKey(entry.emoji_name, entry.emoji_id);

/** Emoji characters and the joiners, modifiers and selectors that build one emoji out of several. */
const EMOJI_PARTS = /^[\p{Emoji_Component}\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u200D\uFE0F\u20E3]{1,32}$/u;
/** What makes the parts an emoji rather than plain digits or symbols. */
const EMOJI_CORE = /[\p{Extended_Pictographic}\p{Regional_Indicator}\u20E3]/u;
const CUSTOM_NAME = /^[A-Za-z0-9_]{2,32}$/;

/** What is wrong with an entry's emoji, as a predicate of `emoji_name`, or null. */
export function emojiProblem(name: string, id: string | null): string | null {
  if (id) {
    return CUSTOM_NAME.test(name) ? null : "must be the custom emoji's name (2 to 32 letters, digits or underscores) when emoji_id is set";
  }
  return EMOJI_PARTS.test(name) && EMOJI_CORE.test(name)
    ? null
    : 'must be one unicode emoji when emoji_id is null (for a custom emoji, send its name and emoji_id)';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The string fields of an embed, checked for their type here; their lengths are the shared limits' (`fitLimits`). */
const EMBED_STRINGS: string[][] = [['title'], ['description'], ['url'], ['footer', 'text'], ['author', 'name']];
/** The platform's limit on an embed's URL (not counted in its text). */
const MAX_EMBED_URL = 2048;

/** A limit an embed breaks, as the predicate of the field holding it. */
function breakProblem(broken: LimitBreak): string {
  const where = broken.path.replace(/^embeds\[0\]\./, '');
  if (broken.unit === 'embed text') return `must hold an embed with at most ${broken.limit} characters of text in total (it has ${broken.length})`;
  if (broken.unit === 'fields') return `must hold an embed whose 'fields' is an array of at most ${broken.limit} fields`;
  return `must hold an embed whose '${where}' is at most ${broken.limit} characters`;
}

/**
 * Reads embed JSON as the platform will take it. Answers the embed, or what
 * is wrong with the field holding it, as a predicate ("must be ...").
 */
export function parseEmbed(content: string): { embed: Embed } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { problem: 'must be embed JSON when the message is an embed (it does not parse as JSON)' };
  }
  if (!isObject(value)) return { problem: 'must be embed JSON that parses to an object when the message is an embed' };
  for (const path of EMBED_STRINGS) {
    const parent = path.length === 1 ? value : value[path[0]!];
    if (parent === undefined) continue;
    if (path.length > 1 && !isObject(parent)) return { problem: `must hold an embed whose '${path[0]}' is an object` };
    const text = (parent as Record<string, unknown>)[path[path.length - 1]!];
    if (text !== undefined && typeof text !== 'string') return { problem: `must hold an embed whose '${path.join('.')}' is a string` };
  }
  if (typeof value.url === 'string' && value.url.length > MAX_EMBED_URL)
    return { problem: `must hold an embed whose 'url' is at most ${MAX_EMBED_URL} characters` };
  if (value.fields !== undefined) {
    if (!Array.isArray(value.fields)) return { problem: "must hold an embed whose 'fields' is an array of at most 25 fields" };
    for (const [i, field] of value.fields.entries()) {
      if (!isObject(field) || typeof field.name !== 'string' || typeof field.value !== 'string') {
        return { problem: `must hold an embed whose 'fields[${i}]' has a string 'name' (at most 256 characters) and 'value' (at most 1024)` };
      }
    }
  }
  const broken = fitLimits({ embeds: [value as Embed] }, 'check');
  if (broken) return { problem: breakProblem(broken) };
  const shown = ['title', 'description', 'fields', 'image', 'thumbnail', 'footer', 'author'].some((key) => value[key] !== undefined);
  if (!shown) return { problem: 'must hold an embed with at least one of title, description, fields, image, thumbnail, footer or author' };
  return { embed: value as Embed };
}

/** What is wrong with a message text (plain or embed JSON), as a predicate of its field, or null. */
export function contentProblem(content: string, isEmbed: boolean): string | null {
  if (isEmbed) {
    const parsed = parseEmbed(content);
    return 'problem' in parsed ? parsed.problem : null;
  }
  if (content.length === 0) return 'must not be empty';
  if (content.length > MAX_CONTENT) return `must be at most ${MAX_CONTENT} characters (it has ${content.length})`;
  return null;
}

/** Why an entry's text and description do not fit a panel of this type, or null. */
export function entryTextProblem(type: PanelType, entry: Pick<Entry, 'text' | 'description'>, name = 'entry'): string | null {
  if (type === 'dropdown' && entry.text === null) return `The ${name} needs 'text': it is the option's label on a dropdown panel.`;
  if (type === 'button' && entry.text !== null && entry.text.length > MAX_BUTTON_LABEL) {
    return `The ${name}'s 'text' must be at most ${MAX_BUTTON_LABEL} characters on a button panel (it has ${entry.text.length}).`;
  }
  return null;
}

/** Why a panel of this type cannot hold these entries, or null. */
export function entriesProblem(type: PanelType, entries: Entry[]): string | null {
  if (entries.length > MAX_ENTRIES[type]) {
    return `A ${type} panel holds at most ${MAX_ENTRIES[type]} entries; this panel has ${entries.length}.`;
  }
  for (const entry of entries) {
    const problem = entryTextProblem(type, entry, `entry ${entry.entry_id}`);
    if (problem) return problem;
  }
  return null;
}

/**
 * How an emoji is written in a reaction URL: the platform wants a unicode
 * emoji URL-encoded and a custom emoji as `name:id`.
 */

/** A custom emoji as members write it (`<:name:id>`, `<a:name:id>`) or as the API path form (`name:id`, `a:name:id`). */
const CUSTOM = /^<?(a)?:?([A-Za-z0-9_~-]+):([0-9]{1,20})>?$/;

/** The parts of an emoji the service stored as text. */
export interface EmojiParts {
  name: string;
  id: string | null;
  animated: boolean;
}

/**
 * Splits emoji text into name and ID: `👍` is a unicode emoji,
 * `name:id`, `<:name:id>` and `<a:name:id>` are custom ones.
 */
export function parseEmoji(text: string): EmojiParts {
  const custom = CUSTOM.exec(text);
  if (custom) return { name: custom[2]!, id: custom[3]!, animated: custom[1] === 'a' };
  return { name: text, id: null, animated: false };
}

/**
 * The path segment for a reaction route: `encodeURIComponent(name)` for a
 * unicode emoji, `name:id` for a custom one (the animated flag is not part
 * of the path).
 */
export function emojiPath(name: string, id?: string | null): string {
  if (id) return `${encodeURIComponent(name)}:${id}`;
  return encodeURIComponent(name);
}

/** An emoji as a reaction function takes it: text (see {@link parseEmoji}) or name and ID. */
export type EmojiInput = string | { name: string; id?: string | null };

/** The path segment for any {@link EmojiInput}. */
export function emojiSegment(emoji: EmojiInput): string {
  const parts = typeof emoji === 'string' ? parseEmoji(emoji) : emoji;
  return emojiPath(parts.name, parts.id);
}

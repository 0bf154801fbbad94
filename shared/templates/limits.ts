/**
 * The platform's limits on a message's text (behaviour §3.6 and §13), checked
 * or kept in one place: content 2000 characters; at most 10 embeds, each
 * with title 256, description 4096, at most 25 fields of name 256 and value
 * 1024, footer text 2048, author name 256; and the text of all embeds
 * together (titles, descriptions, field names and values, footers, author
 * names) at most 6000.
 *
 * `check` answers the first limit a message breaks, with its path in the
 * body (`embeds[0].fields[3].value`), for a text a person sends on purpose;
 * `cut` shortens what is over with `…` (and drops fields and embeds past
 * their count), for a message the service posts by itself on an event, so
 * the event still gets its message. Lengths are counted in UTF-16 units as
 * JavaScript strings count them, never fewer than the platform counts, and
 * a cut never splits a surrogate pair.
 */
import type { Embed, MessageCreate } from '../platform/types.js';

/** The platform's limits a message's text must keep. */
export const MESSAGE_LIMITS = {
  content: 2000,
  embeds: 10,
  embedTotal: 6000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  authorName: 256,
} as const;

/** A limit a message breaks: where, how long it is, and the most allowed. */
export interface LimitBreak {
  /** The path in the message body: `content`, `embeds[0].title`, `embeds[0].fields` (a count), `embeds` (the total text). */
  path: string;
  /** What is counted: characters of one text, fields or embeds in a list, or the characters of all embeds together. */
  unit: 'characters' | 'fields' | 'embeds' | 'embed text';
  length: number;
  limit: number;
}

/**
 * The limit broken, as a sentence a 422 can hold: "content is 2150
 * characters once filled; at most 2000" (`filled`), or without "once filled"
 * for a text checked as stored.
 */
export function describeBreak(broken: LimitBreak, filled = false): string {
  const when = filled ? ' once filled' : '';
  switch (broken.unit) {
    case 'characters':
      return `${broken.path} is ${broken.length} characters${when}; at most ${broken.limit}`;
    case 'embed text':
      return `the embeds' text (titles, descriptions, field names and values, footers, author names) is ${broken.length} characters${when}; at most ${broken.limit}`;
    default:
      return `${broken.path} has ${broken.length} ${broken.unit}; at most ${broken.limit}`;
  }
}

/** One text of a message: where it is, its limit, and how to replace it in the copy being cut. */
interface Slot {
  path: string;
  limit: number;
  /** Every slot counts in the embeds' total; the lower this, the sooner it is shortened when the total is over. */
  sacrifice: number;
  get(): string;
  set(text: string): void;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** `text` within `limit` characters: unchanged when it fits, else its start and `…`. */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = Math.max(0, limit - 1);
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** A string property of an object as a slot (absent or not a string: no slot). */
function slot(owner: object | undefined, key: string, path: string, limit: number, sacrifice: number): Slot[] {
  const record = owner as Record<string, unknown> | undefined;
  if (!record || typeof record[key] !== 'string') return [];
  return [{ path, limit, sacrifice, get: () => record[key] as string, set: (text) => void (record[key] = text) }];
}

/** Order in which texts give way when the embeds' total is over: descriptions first, titles last. */
const SACRIFICE = { description: 0, fieldValue: 1, footer: 2, fieldName: 3, authorName: 4, title: 5 } as const;

function embedSlots(embed: Embed, at: string): Slot[] {
  const fields = Array.isArray(embed.fields) ? embed.fields : [];
  return [
    ...slot(embed, 'title', `${at}.title`, MESSAGE_LIMITS.title, SACRIFICE.title),
    ...slot(embed, 'description', `${at}.description`, MESSAGE_LIMITS.description, SACRIFICE.description),
    ...fields.flatMap((field, i) => [
      ...slot(field, 'name', `${at}.fields[${i}].name`, MESSAGE_LIMITS.fieldName, SACRIFICE.fieldName),
      ...slot(field, 'value', `${at}.fields[${i}].value`, MESSAGE_LIMITS.fieldValue, SACRIFICE.fieldValue),
    ]),
    ...slot(embed.footer, 'text', `${at}.footer.text`, MESSAGE_LIMITS.footer, SACRIFICE.footer),
    ...slot(embed.author, 'name', `${at}.author.name`, MESSAGE_LIMITS.authorName, SACRIFICE.authorName),
  ];
}

const totalOf = (slots: Slot[]) => slots.reduce((sum, s) => sum + s.get().length, 0);

/** The first limit `body` breaks, or null when every text fits. */
function firstBreak(body: MessageCreate): LimitBreak | null {
  if (typeof body.content === 'string' && body.content.length > MESSAGE_LIMITS.content) {
    return { path: 'content', unit: 'characters', length: body.content.length, limit: MESSAGE_LIMITS.content };
  }
  const embeds = Array.isArray(body.embeds) ? body.embeds : [];
  if (embeds.length > MESSAGE_LIMITS.embeds) return { path: 'embeds', unit: 'embeds', length: embeds.length, limit: MESSAGE_LIMITS.embeds };
  const all: Slot[] = [];
  for (const [i, embed] of embeds.entries()) {
    const fields = Array.isArray(embed.fields) ? embed.fields : [];
    if (fields.length > MESSAGE_LIMITS.fields) return { path: `embeds[${i}].fields`, unit: 'fields', length: fields.length, limit: MESSAGE_LIMITS.fields };
    const slots = embedSlots(embed, `embeds[${i}]`);
    const over = slots.find((s) => s.get().length > s.limit);
    if (over) return { path: over.path, unit: 'characters', length: over.get().length, limit: over.limit };
    all.push(...slots);
  }
  const total = totalOf(all);
  if (total > MESSAGE_LIMITS.embedTotal) return { path: 'embeds', unit: 'embed text', length: total, limit: MESSAGE_LIMITS.embedTotal };
  return null;
}

/** A copy of `body` within every limit, each text over its limit cut with `…`. */
function cutToLimits(body: MessageCreate): MessageCreate {
  const out: MessageCreate = { ...body };
  if (typeof out.content === 'string') out.content = cutText(out.content, MESSAGE_LIMITS.content);
  if (!Array.isArray(body.embeds)) return out;
  const embeds = structuredClone(body.embeds.slice(0, MESSAGE_LIMITS.embeds));
  const all: Slot[] = [];
  for (const [i, embed] of embeds.entries()) {
    if (Array.isArray(embed.fields)) embed.fields = embed.fields.slice(0, MESSAGE_LIMITS.fields);
    const slots = embedSlots(embed, `embeds[${i}]`);
    for (const s of slots) s.set(cutText(s.get(), s.limit));
    all.push(...slots);
  }
  // Over the total: shorten texts in sacrifice order (the last embed's first), each down to `…` at the least.
  const byOrder = [...all].sort((a, b) => a.sacrifice - b.sacrifice || all.indexOf(b) - all.indexOf(a));
  let excess = totalOf(all) - MESSAGE_LIMITS.embedTotal;
  for (const s of byOrder) {
    if (excess <= 0) break;
    const before = s.get().length;
    if (before <= 1) continue;
    s.set(cutText(s.get(), Math.max(1, before - excess)));
    excess -= before - s.get().length;
  }
  out.embeds = embeds;
  return out;
}

/**
 * Checks a filled message against every platform limit on its text.
 * `check`: the first limit broken (path, length, limit), or null.
 * `cut`: the message itself when it fits, else a copy that fits, each text
 * over its limit ending in `…`.
 */
export function fitLimits(body: MessageCreate, mode: 'check'): LimitBreak | null;
export function fitLimits(body: MessageCreate, mode: 'cut'): MessageCreate;
export function fitLimits(body: MessageCreate, mode: 'check' | 'cut'): LimitBreak | null | MessageCreate {
  const broken = firstBreak(body);
  if (mode === 'check') return broken;
  // Nothing over: the message as it is, not a copy.
  return broken ? cutToLimits(body) : body;
}

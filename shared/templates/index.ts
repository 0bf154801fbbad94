/**
 * The one template mechanism for member-facing text (contract 12): message
 * contents and embed JSON take variables written `<name>`; an unknown
 * `<...>` stays as written. Welcoming, the invite tracker, tags and the
 * verifier all render through here, and check a stored template here too, so
 * a template that would break the platform's limits is refused (422) when it
 * is stored, never when a member joins.
 *
 * Pure functions: no I/O, no platform client. Callers fetch the member and
 * guild and pass what they know as {@link TemplateVariables}.
 */
import type { AllowedMentions, Embed, MessageCreate } from '../platform/types.js';

/** Variable name (without the angle brackets) -> its text. Absent names stay as written. */
export type TemplateVariables = Readonly<Record<string, string | number | null | undefined>>;

/** The member a message speaks of, as the platform answers `GET /guilds/{g}/members/{u}` or `GET /users/{u}`. */
export interface TemplateMember {
  id: string;
  username?: string | null;
  global_name?: string | null;
  nick?: string | null;
}

/** The guild a message is posted in, as `GET /guilds/{g}?with_counts=true` answers it. */
export interface TemplateGuild {
  name?: string | null;
  approximate_member_count?: number | null;
}

/** The platform's limits a rendered message must keep (contract 3.6 and the embed reference). */
export const MESSAGE_LIMITS = {
  content: 2000,
  embedTotal: 6000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  authorName: 256,
} as const;

const VARIABLE = /<([a-z_]+)>/g;

/** Replaces every `<name>` whose name is given; any other `<...>` stays as written. */
export function fillTemplate(text: string, variables: TemplateVariables): string {
  return text.replace(VARIABLE, (whole, name: string) => {
    const value = variables[name];
    return value === undefined || value === null ? whole : String(value);
  });
}

/**
 * The member and guild variables of contract 12: `<user_mention>`,
 * `<user_name>`, `<user_id>`, `<server_name>`, `<member_count>`. A variable
 * whose value is unknown (no guild given) is left out, so it stays as written.
 */
export function memberVariables(member: TemplateMember, guild?: TemplateGuild | null): Record<string, string | number> {
  return {
    user_mention: `<@${member.id}>`,
    user_name: member.nick || member.global_name || member.username || member.id,
    user_id: member.id,
    ...guildVariables(guild),
  };
}

/** The guild's variables: `<server_name>` and `<member_count>`, those the platform gave. */
export function guildVariables(guild?: TemplateGuild | null): Record<string, string | number> {
  const vars: Record<string, string | number> = {};
  if (guild?.name) vars.server_name = guild.name;
  if (typeof guild?.approximate_member_count === 'number') vars.member_count = guild.approximate_member_count;
  return vars;
}

/** Fills every string value of a parsed JSON value, keys untouched. */
function fillDeep(value: unknown, variables: TemplateVariables): unknown {
  if (typeof value === 'string') return fillTemplate(value, variables);
  if (Array.isArray(value)) return value.map((item) => fillDeep(item, variables));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillDeep(item, variables)]));
  }
  return value;
}

/** Parses embed JSON; answers the embed object or a sentence saying what is wrong. */
function parseEmbed(json: string, field: string): Embed | string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return `Field '${field}' must be embed JSON (a JSON object such as {"title": "Welcome", "description": "Hello <user_mention>"}), but it does not parse as JSON.`;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return `Field '${field}' must be embed JSON: a JSON object, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}.`;
  }
  return value as Embed;
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** The first limit an embed breaks, as a sentence naming `field`, or null. */
export function embedProblem(embed: Embed, field: string): string | null {
  const over = (what: string, limit: number) => `Field '${field}' holds an embed whose ${what} is over the platform's limit of ${limit} characters.`;
  for (const key of ['title', 'description', 'url'] as const) {
    if (embed[key] !== undefined && typeof embed[key] !== 'string') return `Field '${field}' holds an embed whose '${key}' is not a string.`;
  }
  if (str(embed.title).length > MESSAGE_LIMITS.title) return over('title', MESSAGE_LIMITS.title);
  if (str(embed.description).length > MESSAGE_LIMITS.description) return over('description', MESSAGE_LIMITS.description);
  if (str(embed.footer?.text).length > MESSAGE_LIMITS.footer) return over('footer text', MESSAGE_LIMITS.footer);
  if (str(embed.author?.name).length > MESSAGE_LIMITS.authorName) return over('author name', MESSAGE_LIMITS.authorName);
  const fields = Array.isArray(embed.fields) ? embed.fields : [];
  if (embed.fields !== undefined && !Array.isArray(embed.fields)) return `Field '${field}' holds an embed whose 'fields' is not a list.`;
  if (fields.length > MESSAGE_LIMITS.fields) return `Field '${field}' holds an embed with ${fields.length} fields; the platform allows at most ${MESSAGE_LIMITS.fields}.`;
  for (const [i, item] of fields.entries()) {
    if (!item || typeof item !== 'object' || typeof item.name !== 'string' || typeof item.value !== 'string') {
      return `Field '${field}' holds an embed whose fields[${i}] is not an object with the strings 'name' and 'value'.`;
    }
    if (str(item.name).length > MESSAGE_LIMITS.fieldName) return over(`fields[${i}].name`, MESSAGE_LIMITS.fieldName);
    if (str(item.value).length > MESSAGE_LIMITS.fieldValue) return over(`fields[${i}].value`, MESSAGE_LIMITS.fieldValue);
  }
  const total =
    str(embed.title).length +
    str(embed.description).length +
    str(embed.footer?.text).length +
    str(embed.author?.name).length +
    fields.reduce((sum, item) => sum + str(item?.name).length + str(item?.value).length, 0);
  if (total > MESSAGE_LIMITS.embedTotal) return `Field '${field}' holds an embed with ${total} characters of text; the platform allows at most ${MESSAGE_LIMITS.embedTotal} in one message.`;
  if (total === 0 && !embed.image && !embed.thumbnail) return `Field '${field}' holds an embed with no text and no image; the platform refuses an empty embed.`;
  return null;
}

/**
 * Checks a template before it is stored: plain content of 1..2000
 * characters, or (with `isEmbed`) embed JSON that parses to an object within
 * the embed limits. Answers the problem as a 422 sentence naming `field`, or
 * null. Variables may lengthen the text when rendered; {@link renderMessage}
 * cuts what the platform would refuse.
 */
export function templateProblem(content: string, isEmbed: boolean, field = 'content'): string | null {
  if (isEmbed) {
    const embed = parseEmbed(content, field);
    return typeof embed === 'string' ? embed : embedProblem(embed, field);
  }
  if (content.length === 0) return `Field '${field}' must not be empty: the platform refuses a message with no content.`;
  if (content.length > MESSAGE_LIMITS.content) return `Field '${field}' must be at most ${MESSAGE_LIMITS.content} characters (the platform's message limit); it has ${content.length}.`;
  return null;
}

const cut = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);

/** Keeps a rendered embed within the limits a variable could have pushed it past. */
function clampEmbed(embed: Embed): Embed {
  const out: Embed = { ...embed };
  if (typeof out.title === 'string') out.title = cut(out.title, MESSAGE_LIMITS.title);
  if (typeof out.description === 'string') out.description = cut(out.description, MESSAGE_LIMITS.description);
  return out;
}

/**
 * Renders a stored template (checked by {@link templateProblem}) into a
 * message body: `content` for text, `embeds: [embed]` for embed JSON, every
 * string value with its variables filled. `allowedMentions` defaults to
 * pinging nobody; pass `{ users: [id] }` to let one member be mentioned.
 */
export function renderMessage(
  content: string,
  isEmbed: boolean,
  variables: TemplateVariables,
  allowedMentions: AllowedMentions = { parse: [] },
): MessageCreate {
  if (isEmbed) {
    const embed = JSON.parse(content) as Embed;
    return { embeds: [clampEmbed(fillDeep(embed, variables) as Embed)], allowed_mentions: allowedMentions };
  }
  return { content: cut(fillTemplate(content, variables), MESSAGE_LIMITS.content), allowed_mentions: allowedMentions };
}

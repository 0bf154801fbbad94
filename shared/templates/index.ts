/**
 * The one template mechanism for member-facing text (behaviour §12): message
 * contents and embed JSON take variables written `<name>`; an unknown
 * `<...>` stays as written. Welcoming, the invite tracker, tags and the
 * verifier all render through here, and check a stored template here too, so
 * a template that breaks the platform's limits as written is refused (422)
 * when it is stored. Once filled, a text may grow past a limit: a message
 * posted on an event is cut with `…` (behaviour §13), a tag sent on purpose is
 * refused with a 422 naming the limit; both through `fitLimits` (limits.ts).
 *
 * Pure functions: no I/O, no platform client. Callers fetch the member and
 * guild and pass what they know as {@link TemplateVariables}.
 */
import { unprocessable } from '../errors.js';
import type { AllowedMentions, Embed, MessageCreate } from '../platform/types.js';
import { type LimitBreak, MESSAGE_LIMITS, describeBreak, fitLimits } from './limits.js';

export { MESSAGE_LIMITS, cutText, describeBreak, fitLimits, type LimitBreak } from './limits.js';

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

const VARIABLE = /<([a-z_]+)>/g;

/** Replaces every `<name>` whose name is given; any other `<...>` stays as written. */
export function fillTemplate(text: string, variables: TemplateVariables): string {
  return text.replace(VARIABLE, (whole, name: string) => {
    const value = variables[name];
    return value === undefined || value === null ? whole : String(value);
  });
}

/**
 * The member and guild variables of behaviour §12: `<user_mention>`,
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

/** The first limit an embed breaks, as a sentence naming `field`, or null. */
export function embedProblem(embed: Embed, field: string): string | null {
  for (const key of ['title', 'description', 'url'] as const) {
    if (embed[key] !== undefined && typeof embed[key] !== 'string') return `Field '${field}' holds an embed whose '${key}' is not a string.`;
  }
  if (embed.fields !== undefined && !Array.isArray(embed.fields)) return `Field '${field}' holds an embed whose 'fields' is not a list.`;
  const fields = embed.fields ?? [];
  for (const [i, item] of fields.entries()) {
    if (!item || typeof item !== 'object' || typeof item.name !== 'string' || typeof item.value !== 'string') {
      return `Field '${field}' holds an embed whose fields[${i}] is not an object with the strings 'name' and 'value'.`;
    }
  }
  const broken = fitLimits({ embeds: [embed] }, 'check');
  if (broken)
    return `Field '${field}' holds an embed over the platform's limits: ${describeBreak({ ...broken, path: broken.path.replace(/^embeds\[0\]\./, '') })}.`;
  const text = [embed.title, embed.description, embed.footer?.text, embed.author?.name, ...fields.flatMap((f) => [f.name, f.value])];
  if (text.every((t) => !t) && !embed.image && !embed.thumbnail)
    return `Field '${field}' holds an embed with no text and no image; the platform refuses an empty embed.`;
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
  if (fitLimits({ content }, 'check'))
    return `Field '${field}' must be at most ${MESSAGE_LIMITS.content} characters (the platform's message limit); it has ${content.length}.`;
  return null;
}

/**
 * What to do when a filled message breaks a platform limit: `cut` each text
 * over its limit with `…` (a message the service posts on an event), or
 * `refuse` with a 422 naming the limit (a text a person sends on purpose).
 */
export type OverLimit = 'cut' | 'refuse';

/** The 422 refusing a filled message that breaks a limit, e.g. "content is 2150 characters once filled; at most 2000". */
export function overLimitError(broken: LimitBreak, what: string) {
  return unprocessable(
    `The ${what} breaks a platform limit: ${describeBreak(broken, true)}. Shorten the text or the values filled into it; nothing was posted.`,
  );
}

/**
 * Renders a stored template (checked by {@link templateProblem}) into a
 * message body: `content` for text, `embeds: [embed]` for embed JSON, every
 * string value with its variables filled, then held to the platform's
 * limits as `overLimit` says (`what` names the message in a refusal).
 * `allowedMentions` defaults to pinging nobody; pass `{ users: [id] }` to
 * let one member be mentioned.
 */
export function renderMessage(
  content: string,
  isEmbed: boolean,
  variables: TemplateVariables,
  allowedMentions: AllowedMentions = { parse: [] },
  overLimit: OverLimit = 'cut',
  what = 'message',
): MessageCreate {
  const filled: MessageCreate = isEmbed
    ? { embeds: [fillDeep(JSON.parse(content) as Embed, variables) as Embed], allowed_mentions: allowedMentions }
    : { content: fillTemplate(content, variables), allowed_mentions: allowedMentions };
  if (overLimit === 'cut') return fitLimits(filled, 'cut');
  const broken = fitLimits(filled, 'check');
  if (broken) throw overLimitError(broken, what);
  return filled;
}

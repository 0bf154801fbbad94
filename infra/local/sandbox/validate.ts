/**
 * The platform's own limits on a message body. The service checks the same
 * limits before calling (422); the sandbox enforces them as the platform
 * does (400 Invalid Form Body) so a missed check shows up in tests.
 */
import type { ActionRow, AllowedMentions, Embed, PollCreate } from '#shared/platform/types.js';
import { FormErrors, invalidJson } from './errors.js';

/** The message fields the sandbox keeps, as sent (checked, not normalised). */
export interface MessageFields {
  content?: string | null;
  embeds?: Embed[] | null;
  components?: ActionRow[] | null;
  poll?: PollCreate;
  allowed_mentions?: AllowedMentions;
  flags?: number;
}

type Path = (string | number)[];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function maxLength(errors: FormErrors, path: Path, value: unknown, max: number, required = false): void {
  if (value === undefined || value === null) {
    if (required) errors.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    return;
  }
  if (typeof value !== 'string') errors.add(path, 'BASE_TYPE_STRING', 'Must be a string.');
  else if (value.length > max) errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
}

function checkList(errors: FormErrors, path: Path, value: unknown, min: number, max: number): unknown[] {
  if (!Array.isArray(value)) {
    errors.add(path, 'BASE_TYPE_ARRAY', 'Must be an array.');
    return [];
  }
  if (value.length < min) errors.add(path, 'BASE_TYPE_MIN_LENGTH', `Must be ${min} or more in length.`);
  if (value.length > max) errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
  return value;
}

function embedText(embed: Record<string, unknown>): number {
  const text = (v: unknown) => (typeof v === 'string' ? v.length : 0);
  const nested = (v: unknown, key: string) => (isObject(v) ? text(v[key]) : 0);
  const fields = Array.isArray(embed.fields) ? embed.fields : [];
  return (
    text(embed.title) +
    text(embed.description) +
    nested(embed.footer, 'text') +
    nested(embed.author, 'name') +
    fields.reduce<number>((sum, f) => sum + nested(f, 'name') + nested(f, 'value'), 0)
  );
}

function checkEmbeds(errors: FormErrors, embeds: unknown): void {
  const list = checkList(errors, ['embeds'], embeds, 0, 10);
  let total = 0;
  for (const [i, embed] of list.entries()) {
    if (!isObject(embed)) {
      errors.add(['embeds', i], 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
      continue;
    }
    maxLength(errors, ['embeds', i, 'title'], embed.title, 256);
    maxLength(errors, ['embeds', i, 'description'], embed.description, 4096);
    if (isObject(embed.footer)) maxLength(errors, ['embeds', i, 'footer', 'text'], embed.footer.text, 2048);
    if (isObject(embed.author)) maxLength(errors, ['embeds', i, 'author', 'name'], embed.author.name, 256);
    if (embed.fields !== undefined) {
      for (const [j, field] of checkList(errors, ['embeds', i, 'fields'], embed.fields, 0, 25).entries()) {
        const f = isObject(field) ? field : {};
        maxLength(errors, ['embeds', i, 'fields', j, 'name'], f.name, 256, true);
        maxLength(errors, ['embeds', i, 'fields', j, 'value'], f.value, 1024, true);
      }
    }
    total += embedText(embed);
  }
  if (total > 6000) errors.add(['embeds'], 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000');
}

function checkButton(errors: FormErrors, path: Path, button: Record<string, unknown>, ids: Set<string>): void {
  maxLength(errors, [...path, 'label'], button.label, 80);
  if (button.style === 5) maxLength(errors, [...path, 'url'], button.url, 512, true);
  else checkCustomId(errors, path, button.custom_id, ids);
}

function checkSelect(errors: FormErrors, path: Path, select: Record<string, unknown>, ids: Set<string>): void {
  checkCustomId(errors, path, select.custom_id, ids);
  const options = checkList(errors, [...path, 'options'], select.options, 1, 25);
  for (const [i, option] of options.entries()) {
    const o = isObject(option) ? option : {};
    maxLength(errors, [...path, 'options', i, 'label'], o.label, 100, true);
    maxLength(errors, [...path, 'options', i, 'value'], o.value, 100, true);
    maxLength(errors, [...path, 'options', i, 'description'], o.description, 100);
  }
}

function checkCustomId(errors: FormErrors, path: Path, customId: unknown, ids: Set<string>): void {
  maxLength(errors, [...path, 'custom_id'], customId, 100, true);
  if (typeof customId !== 'string') return;
  if (ids.has(customId)) errors.add([...path, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
  ids.add(customId);
}

/** At most 5 rows; a row holds 1 to 5 buttons, or one dropdown alone. */
function checkComponents(errors: FormErrors, components: unknown): void {
  const rows = checkList(errors, ['components'], components, 0, 5);
  const ids = new Set<string>();
  for (const [r, row] of rows.entries()) {
    if (!isObject(row) || row.type !== 1) {
      errors.add(['components', r, 'type'], 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (1,).');
      continue;
    }
    const children = checkList(errors, ['components', r, 'components'], row.components, 1, 5);
    const hasSelect = children.some((c) => isObject(c) && c.type === 3);
    if (hasSelect && children.length > 1) {
      errors.add(['components', r, 'components'], 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'The specified component exceeds the maximum width');
    }
    for (const [i, child] of children.entries()) {
      const path = ['components', r, 'components', i];
      if (isObject(child) && child.type === 2) checkButton(errors, path, child, ids);
      else if (isObject(child) && child.type === 3) checkSelect(errors, path, child, ids);
      else errors.add([...path, 'type'], 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (2, 3).');
    }
  }
}

function checkPoll(errors: FormErrors, poll: unknown): void {
  if (!isObject(poll)) return errors.add(['poll'], 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
  maxLength(errors, ['poll', 'question', 'text'], isObject(poll.question) ? poll.question.text : undefined, 300, true);
  const answers = checkList(errors, ['poll', 'answers'], poll.answers, 1, 10);
  for (const [i, answer] of answers.entries()) {
    const media = isObject(answer) && isObject(answer.poll_media) ? answer.poll_media : {};
    maxLength(errors, ['poll', 'answers', i, 'poll_media', 'text'], media.text, 55, true);
  }
  const duration = poll.duration;
  if (duration !== undefined && (!Number.isInteger(duration) || (duration as number) < 1 || (duration as number) > 768)) {
    errors.add(['poll', 'duration'], 'NUMBER_TYPE_MAX', 'int value should be between 1 and 768.');
  }
}

/**
 * Checks a message body against the platform's limits and answers its
 * fields; throws 400 Invalid Form Body (code 50035) naming every bad field.
 * `poll` is only accepted when creating.
 */
export function checkMessageBody(body: unknown, mode: 'create' | 'edit'): MessageFields {
  if (!isObject(body)) throw invalidJson();
  const errors = new FormErrors();
  maxLength(errors, ['content'], body.content, 2000);
  if (typeof body.nonce === 'string') maxLength(errors, ['nonce'], body.nonce, 25);
  if (body.embeds !== undefined && body.embeds !== null) checkEmbeds(errors, body.embeds);
  if (body.components !== undefined && body.components !== null) checkComponents(errors, body.components);
  if (mode === 'create' && body.poll !== undefined && body.poll !== null) checkPoll(errors, body.poll);
  errors.throwIfAny();
  return body as MessageFields;
}

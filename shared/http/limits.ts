import { AppError } from '../errors.js';

/** Request bodies are at most 64 KiB (behaviour §3.6). */
export const MAX_BODY_BYTES = 64 * 1024;

export const payloadTooLarge = (bytes: number) =>
  new AppError('PayloadTooLargeError', `The request body is ${bytes} bytes; at most ${MAX_BODY_BYTES} bytes (64 KiB) are accepted.`);

/** Throws 413 when a body is over the limit; counts bytes, not characters. */
export function checkBodySize(body: string | null | undefined, isBase64 = false): void {
  if (!body) return;
  const bytes = isBase64 ? Buffer.from(body, 'base64').length : Buffer.byteLength(body, 'utf8');
  if (bytes > MAX_BODY_BYTES) throw payloadTooLarge(bytes);
}

// The answer's byte budget belongs to the table layer (a page read from the table ends by it); the HTTP layer uses the same.
export { LIST_BYTES, ListBudget, MAX_ANSWER_BYTES, fitting, jsonBytes } from '../db/budget.js';

/**
 * The store's limits, checked by the factory on every route before any store
 * call: a DynamoDB sort key holds at most 1024 bytes and a partition key 2048,
 * so a path or query string past these bounds can only be answered with a 500
 * from the store. Items (400 KB) are out of reach: bodies are at most 64 KiB.
 */

/** The longest ID anything names: snowflakes have 20 digits, minted IDs 22 characters, poll IDs 64. */
export const MAX_ID_CHARS = 128;

/** The longest query-string value: enough for any name or URL a rule allows, short enough for any key. */
export const MAX_QUERY_VALUE_BYTES = 512;

const isIdName = (name: string) => name === 'id' || name.endsWith('_id');
const shown = (value: string) => JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);

/**
 * A path parameter longer than {@link MAX_ID_CHARS} names a record no one can
 * have: 404. A query or body field named `*_id` that long, or a query value
 * longer than {@link MAX_QUERY_VALUE_BYTES}, breaks a limit: 422. Runs after the shape checks (path) or the rules (query and
 * body), so fields with a shape or bound of their own have met it first.
 */
export function checkStoreLimits(parts: { where: 'path' | 'query' | 'body'; raw: unknown }[]): void {
  for (const { where, raw } of parts) {
    for (const [name, value] of strings(raw)) {
      const field = name
        .split('.')
        .pop()!
        .replace(/\[\d+\]$/, '');
      if (where === 'path' && value.length > MAX_ID_CHARS) {
        throw new AppError(
          'NotFoundError',
          `No record has the ${field} ${shown(value)}: IDs are at most ${MAX_ID_CHARS} characters (this one has ${value.length}).`,
        );
      }
      if (isIdName(field) && value.length > MAX_ID_CHARS) {
        throw new AppError('Unprocessable Entity', `Field '${name}' must be at most ${MAX_ID_CHARS} characters, as every ID is (it has ${value.length}).`);
      }
      const bytes = Buffer.byteLength(value, 'utf8');
      if (where === 'query' && bytes > MAX_QUERY_VALUE_BYTES) {
        throw new AppError('Unprocessable Entity', `Field '${name}' is ${bytes} bytes long; a query value is at most ${MAX_QUERY_VALUE_BYTES} bytes.`);
      }
    }
  }
}

/** Every string of a JSON value with its field path (`answers[0].emoji_id`). */
function* strings(value: unknown, path = ''): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* strings(item, `${path}[${i}]`);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) yield* strings(item, path ? `${path}.${key}` : key);
  }
}

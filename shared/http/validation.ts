import type * as z from 'zod/mini';
import { AppError } from '../errors.js';

/**
 * Turns Zod issues into the two answers of behaviour §3.2: 400 for shape (missing
 * field, wrong type, invalid ID) and 422 for rules (ranges, allowed values,
 * lengths, formats, conditional requirements).
 *
 * A schema marks an issue as shape with `params: { status: 400 }`; the Zod
 * issue codes that mean "wrong type" are shape too, and so is a field with
 * allowed values (an enum, a literal) that is missing or whose JSON type none
 * of the allowed values has (`null`, `true`, `[]`, `{}`, `1.5` for a list of
 * names). Everything else (a value of the right type outside the allowed
 * ones among it, an integer of any size out of range) is a rule.
 */
type Issue = z.core.$ZodIssue;

const SHAPE_CODES = /* @__PURE__ */ new Set(['invalid_type', 'invalid_union', 'invalid_key', 'invalid_element', 'unrecognized_keys']);

export function isShapeIssue(issue: Issue): boolean {
  if (issue.code === 'custom') return (issue.params as { status?: number } | undefined)?.status === 400;
  if (issue.code === 'invalid_value') return !ofAllowedType(issue.input, issue.values);
  if (isIntegerTooBig(issue)) return false;
  return SHAPE_CODES.has(issue.code);
}

/**
 * A JSON integer beyond 2^53 (parsed as a bigint) where a number is wanted:
 * well-typed, only too big, so a rule (422) like any other integer out of
 * range, whatever its size.
 */
export function isIntegerTooBig(issue: { code: string; input?: unknown; expected?: string }): boolean {
  return issue.code === 'invalid_type' && typeof issue.input === 'bigint' && (issue.expected === 'number' || issue.expected === 'int');
}

/** A value's JSON type, as JSON Schema names it; a bigint is a JSON integer too big for a number. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Whether a value was given and has the JSON type of one of the allowed values. */
function ofAllowedType(input: unknown, values: readonly unknown[]): boolean {
  return input !== undefined && values.some((allowed) => jsonType(allowed) === jsonType(input));
}

/** Where the issue is, as a client would write it: `answers[0].answer_text`. */
export function fieldName(path: PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join('');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'bigint') return 'an integer';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number with a fraction';
  return `a ${typeof value}`;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean (true or false)',
  object: 'an object',
  array: 'an array',
};

const unit = (origin: string | undefined) => (origin === 'string' ? ' characters' : origin === 'array' || origin === 'set' ? ' items' : '');

/**
 * The problem an issue names, as a predicate of its field ("is required",
 * "must be at most 100"). Used as the per-parse error map, so messages a
 * schema spells out itself take precedence.
 */
export function problemOf(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      if (isIntegerTooBig(issue)) return `must be at most ${Number.MAX_SAFE_INTEGER} and at least ${-Number.MAX_SAFE_INTEGER}`;
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      if (issue.input === undefined) return `is required (${expected})`;
      return `must be ${expected}, not ${describe(issue.input)}`;
    }
    case 'too_small':
      return issue.origin === 'array' && Number(issue.minimum) === 1 ? 'must not be empty' : `must be at least ${issue.minimum}${unit(issue.origin)}`;
    case 'too_big':
      return `must be at most ${issue.maximum}${unit(issue.origin)}`;
    case 'invalid_value': {
      const allowed = `one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
      if (issue.input === undefined) return `is required (${allowed})`;
      return ofAllowedType(issue.input, issue.values) ? `must be ${allowed}` : `must be ${allowed}, not ${describe(issue.input)}`;
    }
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue ? `does not have the allowed form (${String(issue.pattern)})` : `must be a valid ${issue.format}`;
    case 'invalid_union':
      return 'does not have any of the allowed types';
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    default:
      return 'is not valid';
  }
}

function sentence(issue: Issue): string {
  const where = fieldName(issue.path);
  const text = where ? `Field '${where}' ${issue.message}` : issue.message;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** How many problems a reason spells out; a body of a thousand bad items is counted, not recited. */
const MAX_LISTED = 25;

/**
 * The AppError for failed parses: the shape issues of every part (400), else
 * their rule issues (422). The reason names every problem found (up to
 * {@link MAX_LISTED}), each a sentence with its field, what was wrong and
 * what is allowed; the first sentence counts the others.
 */
export function validationError(failures: { where: 'body' | 'query' | 'path'; issues: Issue[] }[]): AppError {
  const found = failures.flatMap(({ where, issues }) => issues.map((issue) => ({ where, issue })));
  const shape = found.filter(({ issue }) => isShapeIssue(issue));
  const chosen = shape.length ? shape : found;
  const sentences = [...new Set(chosen.map(({ issue }) => sentence(issue)))];
  const places = [...new Set(chosen.map(({ where }) => where))].join(' and ');
  const others = sentences.length - 1;
  const more = others > 0 ? ` (${others} more problem${others > 1 ? 's' : ''} in the ${places})` : '';
  const unlisted = sentences.length > MAX_LISTED ? [`(${sentences.length - MAX_LISTED} more not listed.)`] : [];
  const reason = [sentences[0]!.replace(/\.$/, `${more}.`), ...sentences.slice(1, MAX_LISTED), ...unlisted].join(' ');
  return new AppError(shape.length ? 'BadRequestError' : 'Unprocessable Entity', reason);
}

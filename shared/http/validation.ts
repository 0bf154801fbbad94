import type { z } from 'zod';
import { AppError } from '../errors.js';

/**
 * Turns Zod issues into the contract's two answers: 400 for shape (missing
 * field, wrong type, invalid ID) and 422 for rules (ranges, allowed values,
 * lengths, formats, conditional requirements).
 *
 * A schema marks an issue as shape with `params: { status: 400 }`; the Zod
 * issue codes that mean "wrong type" are shape too. Everything else is a rule.
 */
type Issue = z.core.$ZodIssue;

const SHAPE_CODES = new Set(['invalid_type', 'invalid_union', 'invalid_key', 'invalid_element', 'unrecognized_keys']);

export function isShapeIssue(issue: Issue): boolean {
  if (issue.code === 'custom') return (issue.params as { status?: number } | undefined)?.status === 400;
  return SHAPE_CODES.has(issue.code);
}

/** Where the issue is, as a client would write it: `answers[0].answer_text`. */
export function fieldName(path: PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join('');
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

const unit = (origin: string | undefined) =>
  origin === 'string' ? ' characters' : origin === 'array' || origin === 'set' ? ' items' : '';

/**
 * The problem an issue names, as a predicate of its field ("is required",
 * "must be at most 100"). Used as the per-parse error map, so messages a
 * schema spells out itself take precedence.
 */
export function problemOf(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      if (issue.input === undefined) return `is required (${expected})`;
      return `must be ${expected}, not ${describe(issue.input)}`;
    }
    case 'too_small':
      return issue.origin === 'array' && Number(issue.minimum) === 1
        ? 'must not be empty'
        : `must be at least ${issue.minimum}${unit(issue.origin)}`;
    case 'too_big':
      return `must be at most ${issue.maximum}${unit(issue.origin)}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue
        ? `does not have the allowed form (${String(issue.pattern)})`
        : `must be a valid ${issue.format}`;
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

/** The AppError for a failed parse: shape issues first (400), else rules (422). */
export function validationError(issues: Issue[], where: 'body' | 'query' | 'path' | 'header'): AppError {
  const shape = issues.filter(isShapeIssue);
  const chosen = shape.length ? shape : issues;
  const first = chosen[0]!;
  const more = chosen.length > 1 ? ` (${chosen.length - 1} more problem${chosen.length > 2 ? 's' : ''} in the ${where})` : '';
  const reason = sentence(first).replace(/\.$/, `${more}.`);
  return new AppError(shape.length ? 'BadRequestError' : 'Unprocessable Entity', reason);
}

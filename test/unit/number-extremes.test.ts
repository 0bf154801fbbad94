import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { loadSpec } from '#shared/http/load-handler.js';
import { STORED_NUMBER } from '#shared/http/schemas.js';
import { problemOf, validationError } from '#shared/http/validation.js';
import { type NumberField, jsonText, numberFields, sampleRequest, valueAt, withValue, type FieldCase, fieldCases } from '../helpers/schema-samples.js';
import { parseJsonLossless } from '#shared/http/json.js';

/**
 * Issue 42 (a), over every number field of every route (generated from the
 * route table): whatever number a request carries, the route's schema either
 * refuses it as a 400 or 422 naming the field, or hands the use case a
 * number the table stores as it is (DynamoDB keeps no nonzero magnitude
 * below 1e-130, and the table client writes no magnitude past 2^53 - 1), so
 * no number reaches the table to fail there as a 500.
 */
const BODY_EXTREMES = [
  '1e-131',
  '-1e-131',
  '5e-324',
  '-5e-324',
  '1e-130',
  '0.30000000000000004',
  '123456789.12345678',
  '9.99e125',
  '1e126',
  '1.7976931348623157e308',
  '-1.7976931348623157e308',
  '9007199254740991',
  '-9007199254740991',
  '9007199254740993',
  '18446744073709551616',
  '-0',
  '0.5',
];
const QUERY_EXTREMES = ['1e-131', '5e-324', '0.5', '1e126', '9007199254740993', '9'.repeat(400), '-0', '00000000000000000000001'];

type Case = FieldCase<NumberField>;

const cases: Case[] = await fieldCases(routes, numberFields);

const stored = (value: number) =>
  Number.isFinite(value) && (value === 0 || (Math.abs(value) >= STORED_NUMBER.smallest && Math.abs(value) <= STORED_NUMBER.largest));

describe('numbers a request carries, in every route', () => {
  it('are found in the routes that have them, the check and send times among them', () => {
    const names = cases.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'serverstats.stats.modules.autoresponder.check-time.record body check_time',
        'polls.create-poll body max_votes_per_answer',
        'serverstats.stats.messages.sent.fetch query days',
      ]),
    );
    expect(cases.filter((c) => !c.field.integer).length).toBeGreaterThanOrEqual(7);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: refused as a 400 or 422 naming the field, or taken as a number the table stores', async (_name, c) => {
    const spec = await loadSpec(c.route);
    const schema = spec[c.where]!;
    const sampled = sampleRequest(spec);
    const field = c.field.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
    const extremes = c.where === 'body' ? BODY_EXTREMES : QUERY_EXTREMES;
    for (const text of extremes) {
      // The body as the endpoint reads it: integers past 2^53 as bigints, the rest as numbers.
      const raw =
        c.where === 'body'
          ? parseJsonLossless(jsonText(withValue(sampled.body, c.field.path, '#number#')).replace('"#number#"', text))
          : withValue(sampled.query, c.field.path, text);
      const result = schema.safeParse(raw, { error: problemOf, reportInput: true });
      if (result.success) {
        const value = valueAt(result.data, c.field.path);
        if (typeof value === 'number') expect({ text, value, stored: stored(value) }).toEqual({ text, value, stored: true });
        continue;
      }
      const error = validationError([{ where: c.where, issues: result.error.issues }]);
      expect({ text, status: error.status }).toEqual({ text, status: expect.toBeOneOf([400, 422]) });
      const mine = result.error.issues.some((issue) => issue.path.join('.') === c.field.path.join('.'));
      // The sample is valid but for this field, so this field is what the answer names (unless a cross-field rule of the sample speaks first).
      if (mine) expect(error.message).toContain(`'${field}'`);
    }
  });
});

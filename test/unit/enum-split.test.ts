import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { schemaOf } from '#shared/http/route.js';
import { loadHandler, loadSpec } from '#shared/http/load-handler.js';
import { jsonType } from '#shared/http/validation.js';
import { type EnumField, enumFields, inputSchema, invoke, jsonText, sampleRequest, withValue } from '../helpers/schema-samples.js';

/**
 * Behaviour §3.2 for every field with allowed values, found by walking every
 * route's request schemas (so new modules are covered without a list): a
 * missing field or a value of the wrong JSON type is a 400 BadRequestError, a
 * value of the right type outside the allowed ones a 422.
 */
const WRONG_TYPES: unknown[] = [null, true, [], {}, 1.5, 2n ** 64n, 'not-an-allowed-value'];

interface Case {
  name: string;
  route: (typeof routes)[number];
  where: 'body' | 'query' | 'path';
  field: EnumField;
}

const cases: Case[] = [];
for (const route of routes) {
  const spec = await loadSpec(route);
  for (const where of ['body', 'query', 'path'] as const) {
    const schema = schemaOf(spec, where);
    if (!schema) continue;
    for (const field of enumFields(inputSchema(schema))) {
      cases.push({ name: `${route.id} ${where} ${field.path.join('.')}`, route, where, field });
    }
  }
}

const fieldName = (path: (string | number)[]) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');

/** The route called with its sample request, one field of one part changed. */
async function callWith(c: Case, value: unknown) {
  const spec = await loadSpec(c.route);
  const handler = await loadHandler(c.route);
  const sampled = sampleRequest(spec);
  const part = withValue(sampled[c.where] ?? {}, c.field.path, value);
  const answer = await invoke(c.route, handler, {
    path: c.where === 'path' ? (part as Record<string, string>) : sampled.path,
    query: c.where === 'query' ? (part as Record<string, string>) : sampled.query,
    body: c.where === 'body' ? jsonText(part) : sampled.body === undefined ? undefined : jsonText(sampled.body),
  });
  return { status: answer.statusCode, error: JSON.parse(answer.body).error as { name: string; message: string } };
}

/** A value of an allowed value's type that is not allowed. */
function outsideValue(values: unknown[]): unknown {
  if (values.every((v) => typeof v === 'number')) return Math.max(...(values as number[])) + 1;
  return 'not-an-allowed-value';
}

describe('fields with allowed values, in every route', () => {
  it('are found in the routes that have them', () => {
    const names = cases.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'reactionroles.create-panel body panel_type',
        'reactionroles.edit-panel body panel_type',
        'reactionroles.check body interaction_type',
        'polls.vote body action',
      ]),
    );
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: wrong JSON types and a missing value are 400, another value 422', async (_name, c) => {
    const field = fieldName(c.field.path);
    // CONTRACT §18: whatever is wrong in a batch's record, it is a 422 naming the record by its index.
    const inRecord = c.route.id === 'serverstats.record-batch' && c.field.path[0] === 'records';
    const refused = inRecord ? { status: 422, name: 'Unprocessable Entity' } : { status: 400, name: 'BadRequestError' };
    const allowedTypes = new Set(c.field.values.map(jsonType));
    if (c.field.nullable) allowedTypes.add('null');
    const wrong = c.where === 'body' ? WRONG_TYPES.filter((v) => !allowedTypes.has(jsonType(v))) : [];
    for (const value of wrong) {
      const { status, error } = await callWith(c, value);
      expect({ value: String(value), status, name: error.name }).toEqual({ value: String(value), ...refused });
      expect(error.message).toContain(`Field '${field}'`);
    }
    if (c.field.required) {
      const { status, error } = await callWith(c, undefined);
      expect({ missing: field, status, name: error.name }).toEqual({ missing: field, ...refused });
      expect(error.message).toContain(`Field '${field}' is required`);
    }
    const outside = outsideValue(c.field.values);
    const { status, error } = await callWith(c, c.where === 'body' ? outside : String(outside));
    expect({ value: outside, status, name: error.name }).toEqual({ value: outside, status: 422, name: 'Unprocessable Entity' });
    expect(error.message).toContain(`Field '${field}'`);
    // Well-typed whatever its size: an integer past 2^53 (2^64) is outside the allowed values too, not a wrong type.
    if (c.field.values.some((v) => Number.isInteger(v))) {
      const huge = 2n ** 64n;
      const { status, error } = await callWith(c, c.where === 'body' ? huge : String(huge));
      expect({ value: String(huge), status, name: error.name }).toEqual({ value: String(huge), status: 422, name: 'Unprocessable Entity' });
      if (c.where === 'body') expect(error.message).toContain(`Field '${field}' must be one of: ${c.field.values.map((v) => JSON.stringify(v)).join(', ')}`);
      else expect(error.message).toContain(`Field '${field}'`);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { loadHandler, loadSpec } from '#shared/http/load-handler.js';
import { SNOWFLAKE_PATTERN } from '#shared/http/schemas.js';
import { type JsonSchema, inputSchema, invoke, sampleRequest } from '../helpers/schema-samples.js';

/**
 * Behaviour §3.2 and §3.4 for every query parameter that is an ID, found by
 * walking every route's query schema: a value that is not an ID (`null`,
 * empty, non-digits, past uint64) is a malformed ID, a 400 BadRequestError
 * naming the parameter, never a 422 and never read as "no filter".
 */
const NOT_IDS = ['null', '', 'abc', '12x', '-1', '18446744073709551616'];

const isIdSchema = (schema: JsonSchema) => schema.pattern === SNOWFLAKE_PATTERN || (schema.anyOf ?? []).some((s) => s.pattern === SNOWFLAKE_PATTERN);

const cases: { name: string; route: (typeof routes)[number]; field: string }[] = [];
for (const route of routes) {
  const spec = await loadSpec(route);
  if (!spec.query) continue;
  for (const [field, schema] of Object.entries(inputSchema(spec.query).properties ?? {})) {
    if (isIdSchema(schema)) cases.push({ name: `${route.id} ${field}`, route, field });
  }
}

describe('ID query parameters, in every route', () => {
  it('are found in the routes that have them, the statistics filters among them', () => {
    const names = cases.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'serverstats.stats.messages.sent.fetch user_id',
        'serverstats.stats.voice.fetch channel_id',
        'invite-tracker.get-uses inviter_id',
      ]),
    );
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: a value that is not an ID is a 400 naming it', async (_name, c) => {
    const spec = await loadSpec(c.route);
    const handler = await loadHandler(c.route);
    const sampled = sampleRequest(spec);
    for (const value of NOT_IDS) {
      const answer = await invoke(c.route, handler, {
        path: sampled.path,
        query: { ...sampled.query, [c.field]: value },
        body: sampled.body === undefined ? undefined : JSON.stringify(sampled.body),
      });
      const error = JSON.parse(answer.body).error as { name: string; message: string };
      expect({ value, status: answer.statusCode, name: error?.name }).toEqual({ value, status: 400, name: 'BadRequestError' });
      expect(error.message).toContain(`Field '${c.field}'`);
    }
  });
});

import { appendFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { loadHandler, loadSpec } from '#shared/http/load-handler.js';
import { SNOWFLAKE_PATTERN } from '#shared/http/schemas.js';
import { KINDS } from '#functions/socials/kinds.js';
import { type JsonSchema, inputSchema, invoke, jsonText, sampleRequest, withValue, type FieldCase, fieldCases } from '../helpers/schema-samples.js';

/**
 * Behaviour §3.2 and §3.4 for every ID field of every body and query (found
 * by walking the route table's schemas, so new routes are covered without a
 * list), at any depth: a value that is not an ID (empty, blank, not digits,
 * negative, past uint64, of another JSON type) is malformed, a 400
 * BadRequestError naming the field, never a 422 and never taken. A setting
 * that clears with `""` (behaviour §3.5) takes `""`.
 */
interface IdField {
  path: (string | number)[];
  /** snowflake: a platform ID; integer: a number naming a record (a poll's answer); text: an ID the service mints or a module names. */
  kind: 'snowflake' | 'integer' | 'text';
  /** `""` is a value of its own (clears a setting). */
  emptyAllowed: boolean;
}

/** What names an ID or an identifier: `id`, `*_id`, `*_ids`, and what a socials monitor watches (its handle, account, community, feed). */
const IDENTIFIERS = new Set(['channel_handle', 'rss_feed_url', ...Object.values(KINDS).map((kind) => kind.field)]);
const isIdName = (name: string) => name === 'id' || name.endsWith('_id') || name.endsWith('_ids') || IDENTIFIERS.has(name);
/** The schema and its alternatives (`anyOf`, at any depth). */
const forms = (schema: JsonSchema): JsonSchema[] => [schema, ...(schema.anyOf ?? []).flatMap(forms)];
const patternsOf = (schema: JsonSchema): string[] => forms(schema).flatMap((s) => (typeof s.pattern === 'string' ? [s.pattern] : []));
const typesOf = (schema: JsonSchema): string[] => forms(schema).flatMap((s) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []));

function idFields(schema: JsonSchema, path: (string | number)[] = [], named = false): IdField[] {
  const patterns = patternsOf(schema);
  const types = typesOf(schema);
  const snowflake = patterns.some((p) => p === SNOWFLAKE_PATTERN || p.startsWith('^([0-9]{1,20}'));
  if (path.length && (snowflake || named) && !types.includes('object') && !types.includes('array')) {
    if (schema.enum || schema.const !== undefined) return [];
    const kind = snowflake ? 'snowflake' : types.includes('integer') ? 'integer' : 'text';
    // A setting that "" clears says so (its pattern or allowed values take "", or its description).
    const emptyAllowed =
      patterns.some((p) => new RegExp(p).test('')) || forms(schema).some((s) => s.const === '' || String(s.description ?? '').includes('""'));
    return [{ path, kind, emptyAllowed }];
  }
  if (types.includes('object')) {
    return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => idFields(property, [...path, name], isIdName(name)));
  }
  const items = forms(schema).find((s) => s.items)?.items;
  if (types.includes('array') && items) return idFields(items, [...path, 0], named);
  return [];
}

/** Values that are not IDs, by kind and part (a query value is always text). */
const NOT_IDS: Record<IdField['kind'], { body: unknown[]; query: string[] }> = {
  snowflake: {
    body: ['', ' ', 'abc', '12x', '-1', '1.5', '１２３', '18446744073709551616', 1.5, -1, 2n ** 64n, true, {}, []],
    query: ['', ' ', 'abc', '12x', '-1', '18446744073709551616', 'null'],
  },
  integer: { body: ['', 'abc', '1', 1.5, true, {}, []], query: ['', ' ', 'abc', '1.5', 'null'] },
  text: { body: ['', 5, true, {}, []], query: [''] },
};

type Case = FieldCase<IdField>;

const cases: Case[] = await fieldCases(routes, idFields);

const fieldName = (path: (string | number)[]) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
const shown = (value: unknown) => (typeof value === 'bigint' ? `${value}n` : JSON.stringify(value));

/** The route called with its sample request, one ID field changed. */
async function callWith(c: Case, value: unknown) {
  const spec = await loadSpec(c.route);
  const handler = await loadHandler(c.route);
  const sampled = sampleRequest(spec);
  const part = withValue(sampled[c.where] ?? {}, c.field.path, value);
  const answer = await invoke(c.route, handler, {
    path: sampled.path,
    query: c.where === 'query' ? (part as Record<string, string>) : sampled.query,
    body: c.where === 'body' ? jsonText(part) : sampled.body === undefined ? undefined : jsonText(sampled.body),
  });
  const error = answer.headers?.['content-type']?.toString().startsWith('text/html') ? { name: 'page', message: answer.body } : JSON.parse(answer.body).error;
  return { status: answer.statusCode, name: (error?.name ?? 'none') as string, message: (error?.message ?? '') as string };
}

/** Every answer that is not the 400 naming the field: the findings. */
async function findings(c: Case): Promise<string[]> {
  const values = NOT_IDS[c.field.kind][c.where].filter((v) => !(v === '' && c.field.emptyAllowed));
  const found: string[] = [];
  for (const value of values) {
    const { status, name, message } = await callWith(c, value);
    // An item of a list that may also be something else (`""` clearing it) is named by its list: none of the list's forms fits.
    const list = c.field.path.findIndex((p) => typeof p === 'number');
    const named = [c.field.path, ...(list > 0 ? [c.field.path.slice(0, list)] : [])].some((path) => message.includes(`'${fieldName(path)}'`));
    if (status !== 400 || name !== 'BadRequestError' || !named) found.push(`${shown(value)} -> ${status} ${name}`);
  }
  // `ID_SPLIT_REPORT=<file> npx vitest run test/unit/id-split.test.ts` lists the findings, one a line, for counting them.
  if (process.env.ID_SPLIT_REPORT) for (const line of found) appendFileSync(process.env.ID_SPLIT_REPORT, `${c.name}: ${line}\n`);
  return found;
}

/** Query scalars that are not IDs (integers, booleans): a value not written as one is malformed too (behaviour §3.5), a 400. */
const NOT_SCALARS: Record<'integer' | 'boolean', string[]> = {
  integer: ['', ' ', 'abc', '1.5', '1e3', '0x10', '+1', 'null'],
  boolean: ['', 'yes', '1', 'TRUE', 'null'],
};
const scalarCases: (Omit<Case, 'field'> & { field: { path: string[]; kind: 'integer' | 'boolean' } })[] = [];
for (const route of routes) {
  const query = (await loadSpec(route)).query;
  for (const [name, schema] of Object.entries(query ? (inputSchema(query).properties ?? {}) : {})) {
    const kind = typesOf(schema).find((t): t is 'integer' | 'boolean' => t === 'integer' || t === 'boolean');
    if (kind && !isIdName(name) && !schema.enum) scalarCases.push({ name: `${route.id} query ${name}`, route, where: 'query', field: { path: [name], kind } });
  }
}

describe('ID fields of bodies and queries, in every route', () => {
  it('are found in the routes that have them, nested ones and minted ones among them', () => {
    const names = cases.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'serverstats.update-settings body starboard_channel_id',
        'reactionroles.create-panel body register_message_id',
        'welcoming.update-settings body autorole_role_ids.0',
        'polls.handler-close body poll_id',
        'socials.get-uploads-playlist-id query channel_handle',
        'socials.create-video body video_channel_handle',
      ]),
    );
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: a value that is not an ID is a 400 naming the field', async (_name, c) => {
    expect(await findings(c)).toEqual([]);
  });
});

describe('integer and boolean query fields, in every route', () => {
  it('are found in the routes that have them', () => {
    expect(scalarCases.map((c) => c.name)).toEqual(expect.arrayContaining(['polls.list-polls query page', 'serverstats.stats.voice.fetch query days']));
  });

  it.each(scalarCases.map((c) => [c.name, c] as const))('%s: a value not written as one is a 400 naming the field', async (_name, c) => {
    const found: string[] = [];
    for (const value of NOT_SCALARS[c.field.kind]) {
      const { status, name, message } = await callWith({ ...c, field: { path: c.field.path, kind: 'text', emptyAllowed: false } }, value);
      if (status !== 400 || name !== 'BadRequestError' || !message.includes(`'${c.field.path[0]}'`)) found.push(`${shown(value)} -> ${status} ${name}`);
    }
    if (process.env.ID_SPLIT_REPORT) for (const line of found) appendFileSync(process.env.ID_SPLIT_REPORT, `${c.name}: ${line}\n`);
    expect(found).toEqual([]);
  });
});

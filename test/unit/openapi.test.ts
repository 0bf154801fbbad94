import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { routes } from '#functions/routes.js';
import { loadSpec } from '#shared/http/load-handler.js';
import { fileOf } from '#shared/http/route.js';
import { loadOpenApiDocument } from '#shared/openapi/load.js';
import { answerProblems } from '../helpers/answers.js';
import { CSRF_HEADER, SESSION_COOKIE } from '#shared/auth/session.js';

const doc: any = await loadOpenApiDocument(routes);
const fixture = JSON.parse(readFileSync(new URL('../infra/fixtures/routes.json', import.meta.url), 'utf8')) as { routes: { method: string; path: string }[] };

describe('every route declares its answer', () => {
  it('lists no route of the service without a `response` schema', async () => {
    const known = new Set(fixture.routes.map((r) => `${r.method} ${r.path}`));
    const present = routes.filter((route) => known.has(`${route.method} ${route.path}`));
    expect(present.length).toBeGreaterThan(50);
    const lacking: string[] = [];
    for (const route of present) if (!(await loadSpec(route)).response) lacking.push(`${route.id} (${route.method} ${route.path}, ${fileOf(route)})`);
    expect(lacking).toEqual([]);
  });

  it('publishes each answer inside the envelope, with its fields', () => {
    const panel = doc.paths['/modules/reactionroles/panels'].post.responses['200'].content['application/json'].schema;
    expect(panel.required).toEqual(['success', 'data']);
    expect(panel.properties.data.properties.panel).toEqual({ $ref: '#/components/schemas/ReactionRolePanel' });
    const record = doc.components.schemas.ReactionRolePanel;
    expect(record.required).toEqual(expect.arrayContaining(['id', 'guild_id', 'panel_id', 'panel_type', 'created_at']));
    expect(record.properties.panel_type.enum).toEqual(['emoji', 'button', 'dropdown']);
    expect(record.properties.guild_id).toMatchObject({ type: 'string', pattern: '^[0-9]{1,20}$' });
    expect(doc.paths['/openapi.json'].get.responses['200'].content['application/json']).toBeDefined();
  });
});

describe('the request schemas in the document', () => {
  it('advertise snowflakes as strings with their pattern, never as integers', () => {
    const status = doc.paths['/modules/polls/status'].get.parameters.find((p: any) => p.name === 'guild_id');
    expect(status.schema).toMatchObject({ type: 'string', pattern: '^[0-9]{1,20}$' });
    const body = doc.paths['/modules/reactionroles/panels'].post.requestBody.content['application/json'].schema;
    expect(body.properties.channel_id).toMatchObject({ type: 'string', pattern: '^[0-9]{1,20}$' });
    expect(body.properties.register_message_id.type).toEqual(['string', 'null']);
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/"pattern":"\^\[0-9\]\{1,20\}\$"[^{}]*\}\s*,\s*\{"type":"integer"/);
  });

  it('state enums, ranges and conditional requirements', () => {
    const create = doc.paths['/modules/reactionroles/panels'].post.requestBody.content['application/json'].schema;
    expect(create.properties.panel_type.enum).toEqual(['emoji', 'button', 'dropdown']);
    expect(create.allOf).toContainEqual(expect.objectContaining({ if: { properties: { is_register: { const: true } }, required: ['is_register'] } }));
    expect(create.allOf).toContainEqual(
      expect.objectContaining({
        if: { properties: { panel_type: { const: 'emoji' } }, required: ['panel_type'] },
        then: expect.objectContaining({ required: ['keep_counter_at_one', 'delete_unrelated_emoji_reactions'] }),
      }),
    );
    const pageSize = doc.paths['/modules/polls/entries'].get.parameters.find((p: any) => p.name === 'page_size');
    expect(pageSize.schema).toMatchObject({ minimum: 1, maximum: 100 });
    const pollPath = doc.paths['/modules/polls/entry/{poll_id}'].get.parameters.find((p: any) => p.name === 'poll_id');
    expect(pollPath.schema.maxLength).toBe(128);
  });

  it('groups operations by module, each group described', () => {
    const tags = new Map(doc.tags.map((t: any) => [t.name, t.description]));
    for (const route of routes) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      expect(tags.get(op.tags[0]), route.id).toEqual(expect.any(String));
    }
  });
});

describe('the answer check of the test client', () => {
  const Answer = z.object({ item: z.object({ id: z.int(), name: z.nullable(z.string()) }), items: z.array(z.object({ id: z.number() })) });

  it('accepts an answer that is exactly what is declared', () => {
    expect(answerProblems(Answer, { item: { id: 1, name: null }, items: [{ id: 2 }] })).toEqual([]);
  });

  it('names missing fields, wrong types and fields answered but not declared', () => {
    expect(answerProblems(Answer, { item: { id: '1', name: null }, items: [] })).toEqual([expect.stringMatching(/^data\.item\.id: /)]);
    expect(answerProblems(Answer, { item: { id: 1 }, items: [] })).toEqual([expect.stringMatching(/^data\.item\.name: /)]);
    expect(answerProblems(Answer, { item: { id: 1, name: 'a', extra: true }, items: [{ id: 2, secret: 'x' }] })).toEqual([
      'data.item.extra: answered but not declared',
      'data.items[0].secret: answered but not declared',
    ]);
  });
});

describe('what values mean (the document a developer reads)', () => {
  /** Every schema in the document, with where it is. */
  function* schemasIn(node: unknown, where: string, parent: any = null): Generator<[string, any, any]> {
    if (!node || typeof node !== 'object') return;
    if (!Array.isArray(node)) yield [where, node, parent];
    for (const [key, value] of Object.entries(node)) yield* schemasIn(value, `${where}/${key}`, node);
  }

  it('gives every integer enum value its meaning, in the description and one by one', () => {
    const lacking: string[] = [];
    for (const [where, schema, parent] of schemasIn(doc, '#')) {
      if (!Array.isArray(schema.enum) || !schema.enum.some((v: unknown) => typeof v === 'number') || where.includes('/x-enumDescriptions')) continue;
      const meanings = schema['x-enumDescriptions'] ?? {};
      // A parameter's description is the parameter's own.
      const description = String(parent?.in && parent.schema === schema ? parent.description : schema.description);
      for (const value of schema.enum.filter((v: unknown) => typeof v === 'number')) {
        if (typeof meanings[value] !== 'string' || !description.includes(`${value}: ${meanings[value]}`)) lacking.push(`${where} ${value}`);
      }
    }
    expect(lacking).toEqual([]);
  });

  it('says what response_type, verifier_type, counter_type, poll_type, poll_answer_type and visibility values mean', () => {
    const body = (path: string, method = 'post') => doc.paths[path][method].requestBody.content['application/json'].schema;
    expect(body('/modules/welcoming/responses').properties.response_type).toMatchObject({
      enum: [1, 2, 3],
      'x-enumDescriptions': { 1: expect.stringContaining('DM welcome'), 2: expect.stringContaining('channel welcome'), 3: expect.stringContaining('leave') },
    });
    const listQuery = doc.paths['/modules/welcoming/responses'].get.parameters.find((p: any) => p.name === 'response_type');
    expect(listQuery.schema.enum).toEqual([1, 2, 3]);
    expect(body('/modules/verifier/settings', 'put').properties.verifier_type.anyOf[0].description).toMatch(/1: click.*2: passphrase.*3: web/);
    expect(body('/modules/serverstats/counters').properties.counter_type).toMatchObject({
      enum: [1, 2, 4, 5, 6, 7, 8, 9, 10],
      description: expect.stringContaining('Type 3'),
    });
    expect(body('/modules/polls/entries').properties.poll_type.description).toMatch(/1: platform-native poll.*2: service poll/);
    expect(body('/modules/polls/entries').properties.poll_answer_type.description).toMatch(/1: emoji reactions.*2: buttons.*3: dropdown/);
    expect(body('/modules/tags/entries').properties.visibility.description).toMatch(/1: public.*2: private/);
    expect(doc.components.schemas.Verification ?? doc.components.schemas.VerifierSettings).toBeDefined();
    expect(doc.components.schemas.VerifierSettings.properties.verifier_type['x-enumDescriptions']).toBeDefined();
  });

  it('says what the duration formats and interaction_id_token are', () => {
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;
    expect(body('/modules/polls/entries').properties.poll_duration.description).toMatch(/s \(seconds\), m \(minutes\), h \(hours\) or d \(days\)/);
    expect(body('/modules/giveaways/entries').properties.end_time.description).toMatch(/ISO 8601 date-time/);
    expect(body('/modules/reactionroles/check').properties.interaction_id_token.description).toMatch(/interaction's token/);
  });

  it('gives every operation an example request: its body and its required parameters', () => {
    const lacking: string[] = [];
    for (const route of routes) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      if (op.requestBody && op.requestBody.content['application/json'].example === undefined) lacking.push(`${route.id} body`);
      for (const p of op.parameters.filter((p: any) => p.required && p.in !== 'header')) if (p.example === undefined) lacking.push(`${route.id} ${p.name}`);
    }
    expect(lacking).toEqual([]);
    expect(doc.paths['/modules/polls/entries'].post.requestBody.content['application/json'].example).toMatchObject({
      guild_id: '1234567890123456789',
      poll_type: 1,
      poll_duration: '1d',
    });
  });
});

describe('Idempotency-Key in the document (behaviour §16)', () => {
  const operations = routes.map((route) => ({ route, op: doc.paths[route.path][route.method.toLowerCase()] }));

  it('is a parameter of every POST, PUT and DELETE, optional, with its pattern; never of a GET', () => {
    const missing = operations
      .filter(({ route, op }) => route.method !== 'GET' && !op.parameters.some((p: any) => p.name === 'Idempotency-Key'))
      .map(({ route }) => route.id);
    expect(missing).toEqual([]);
    const onReads = operations.filter(({ route, op }) => route.method === 'GET' && op.parameters.some((p: any) => p.name === 'Idempotency-Key'));
    expect(onReads.map(({ route }) => route.id)).toEqual([]);
    const vote = doc.paths['/modules/polls/entry/vote'].post.parameters.find((p: any) => p.name === 'Idempotency-Key');
    expect(vote).toMatchObject({
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9._:-]{1,255}$' },
    });
  });

  it('says on a route keeping its own key (the statistics batch) that calls at once store once and answer alike, and on the others that a repeat while the first runs is 409', () => {
    const keyOf = (path: string) => doc.paths[path].post.parameters.find((p: any) => p.name === 'Idempotency-Key').description;
    expect(keyOf('/modules/serverstats/stats/batch')).toContain('Calls at once with one key store once: each answers the kept answer (replayed)');
    expect(keyOf('/modules/polls/entry/vote')).toContain('A repeat while the first runs answers 409 ConflictError with Retry-After;');
    expect(keyOf('/modules/polls/entry/vote')).not.toContain('Calls at once');
  });

  it('declares the Idempotent-Replayed header of a replayed answer, and the 409 ConflictError with Retry-After, on every mutating operation', () => {
    const lacking = operations
      .filter(({ route }) => route.method !== 'GET')
      .filter(({ op }) => {
        if (!op.responses['200'].headers?.['Idempotent-Replayed']) return true;
        // A route answering pages (the verifier's link) lists its own failure pages instead of the envelope's.
        if (!op.responses['200'].content['application/json']) return false;
        const conflict = op.responses['409']?.$ref?.replace('#/components/responses/', '');
        const answer = conflict ? doc.components.responses[conflict] : undefined;
        return !answer?.['x-error-names'].includes('ConflictError') || !answer.headers?.['Retry-After'];
      })
      .map(({ route }) => route.id);
    expect(lacking).toEqual([]);
    expect(doc.components.schemas.ErrorEnvelope.properties.error.properties.name.enum).toContain('ConflictError');
  });
});

describe("every route's answer", () => {
  it('is listed by its id in its module answers.ts, and every answer listed is a route', async () => {
    const { answers } = await import('#functions/answers.js');
    const ids = new Set(routes.map((route) => route.id));
    const unanswered = routes.filter((route) => !answers[route.id]).map((route) => route.id);
    // The shared state rows (module-state.*) are each module's copies' template, not in the table themselves.
    const unknown = Object.keys(answers).filter((id) => !ids.has(id) && !id.startsWith('module-state.'));
    expect({ unanswered, unknown }).toEqual({ unanswered: [], unknown: [] });
  });
});

describe('the credentials the document states', () => {
  it('lets a dashboard session call what a guild key may, with the CSRF header on every change, and nothing internal', () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      const expected =
        route.access === 'public'
          ? []
          : route.access === 'internal'
            ? [{ bearerAuth: [] }]
            : [{ bearerAuth: [] }, route.method === 'GET' ? { sessionCookie: [] } : { sessionCookie: [], csrfToken: [] }];
      if (JSON.stringify(op.security) !== JSON.stringify(expected)) wrong.push(`${route.method} ${route.path}: ${JSON.stringify(op.security)}`);
    }
    expect(wrong).toEqual([]);
    expect(doc.paths['/modules/reactionroles/panels'].post.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [], csrfToken: [] }]);
    expect(doc.paths['/modules/polls/status'].get.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    expect(doc.paths['/modules/reactionroles/check'].post.security).toEqual([{ bearerAuth: [] }]);
  });

  it('names the session cookie and the CSRF header the service reads', () => {
    const { sessionCookie, csrfToken } = doc.components.securitySchemes;
    expect(sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: SESSION_COOKIE });
    expect(csrfToken).toMatchObject({ type: 'apiKey', in: 'header', name: CSRF_HEADER });
    expect(doc.paths['/modules/polls/enable'].post.description).toContain(SESSION_COOKIE);
  });
});

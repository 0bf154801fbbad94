import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { MAX_ID_CHARS, MAX_QUERY_VALUE_BYTES } from '#shared/http/limits.js';
import { loadHandler, loadSpec } from '#shared/http/load-handler.js';
import { invoke, jsonText, sampleRequest } from '../helpers/schema-samples.js';

/**
 * Item 6 of issue 9, over every route (generated from the route table): an ID
 * in a path that no record can have is a 404, and a query value past what a
 * key can hold, or a body ID longer than any, a 422, answered by the factory before any store call (these
 * calls have no table to reach: a store call would be a 500 or a 503).
 */
const withPath = routes.filter((route) => route.path.includes('{'));
const withQuery: { route: (typeof routes)[number]; name: string }[] = [];
for (const route of routes) {
  const spec = await loadSpec(route);
  if (spec.query) withQuery.push({ route, name: Object.keys(sampleRequest(spec).query)[0] ?? 'guild_id' });
}

async function answer(route: (typeof routes)[number], change: (request: ReturnType<typeof sampleRequest>) => void) {
  const spec = await loadSpec(route);
  const handler = await loadHandler(route);
  const request = sampleRequest(spec);
  change(request);
  return invoke(route, handler, { path: request.path, query: request.query, body: request.body === undefined ? undefined : jsonText(request.body) });
}

async function call(route: (typeof routes)[number], change: (request: ReturnType<typeof sampleRequest>) => void) {
  const { statusCode, body } = await answer(route, change);
  return { status: statusCode, error: JSON.parse(body).error as { name: string; message: string } };
}

/** Routes answering pages (the verifier's web link): an input no record can have is a wrong link, the 403 page. */
async function answersPages(route: (typeof routes)[number]): Promise<boolean> {
  return (await loadSpec(route)).errorPage !== undefined;
}

/** A page route's refusal of such an input: the verifier's link is its own credential (a wrong link: 403); the dashboard's pages refuse input as the API does (400, 422), as pages. */
const pageRefusals = (route: (typeof routes)[number]) => (route.id.startsWith('verifier.') ? [403] : [400, 422]);

async function pageAnswer(route: (typeof routes)[number], change: (request: ReturnType<typeof sampleRequest>) => void) {
  const { statusCode, headers } = await answer(route, change);
  const contentType = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return { status: statusCode, contentType: String(contentType) };
}

describe('inputs past the store limits', () => {
  it('covers the routes with path IDs', () => {
    expect(withPath.map((r) => r.id)).toEqual(expect.arrayContaining(['reactionroles.get-panel', 'reactionroles.edit-entry', 'polls.get-poll']));
  });

  it.each(withPath.map((route) => [route.id, route] as const))('%s: a path ID of 1,020 characters is a 404', async (_id, route) => {
    for (const name of route.path.match(/\{([^}]+)\}/g)!.map((p) => p.slice(1, -1))) {
      if (await answersPages(route)) {
        const page = await pageAnswer(route, (request) => (request.path[name] = 'x'.repeat(1020)));
        expect(pageRefusals(route)).toContain(page.status);
        expect(page.contentType).toMatch(/^text\/html/);
        continue;
      }
      const { status, error } = await call(route, (request) => (request.path[name] = 'x'.repeat(1020)));
      expect({ name, status, error: error.name }).toEqual({ name, status: 404, error: 'NotFoundError' });
      expect(error.message).toContain(`IDs are at most ${MAX_ID_CHARS} characters`);
    }
  });

  it.each(withQuery.map(({ route, name }) => [route.id, route, name] as const))('%s: a query value past the key limit is refused', async (_id, route, name) => {
    const change = (request: ReturnType<typeof sampleRequest>) => (request.query[name] = '1'.repeat(MAX_QUERY_VALUE_BYTES + 1));
    if (await answersPages(route)) {
      const page = await pageAnswer(route, change);
      expect(pageRefusals(route)).toContain(page.status);
      expect(page.contentType).toMatch(/^text\/html/);
      return;
    }
    const { status, error } = await call(route, change);
    // A snowflake parameter is not an ID at all (400); any other value is too long to be a key (422).
    expect([400, 422]).toContain(status);
    expect(error.message).toContain(name);
  });

  it('refuses a body ID longer than any ID', async () => {
    const route = routes.find((r) => r.id === 'polls.handler-close')!;
    const { status, error } = await call(route, (request) => ((request.body as Record<string, unknown>).poll_id = 'p'.repeat(MAX_ID_CHARS + 1)));
    expect({ status, name: error.name }).toEqual({ status: 422, name: 'Unprocessable Entity' });
    expect(error.message).toBe(
      `Unprocessable Entity! Field 'poll_id' must be at most ${MAX_ID_CHARS} characters, as every ID is (it has ${MAX_ID_CHARS + 1}).`,
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { type TestService, startTestService } from '#test/helpers/local.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

/** Bodies of every shape a broken client could send. */
const BODIES = [
  '',
  ' ',
  '{',
  '}',
  'null',
  'true',
  '0',
  '-1e999',
  '"text"',
  '[]',
  '[{"guild_id": 1}]',
  '{}',
  '{"guild_id": null}',
  '{"guild_id": {}}',
  '{"guild_id": []}',
  '{"guild_id": 1.0e3}',
  '{"guild_id": 99999999999999999999999999999}',
  '{"guild_id": "１２３"}',
  '{"guild_id": "12\\u0000"}',
  '{"guild_id": 1, "name": 5}',
  '{"guild_id": 1, "key_id": null}',
  '{"__proto__": {"guild_id": 1}}',
  '{"constructor": {"prototype": {}}}',
  `{"a": ${'['.repeat(5000)}${']'.repeat(5000)}}`,
  '\ufeff{"guild_id": 1}',
  '{"guild_id": 1}{"guild_id": 2}',
];

const QUERIES = ['', '?guild_id=', '?guild_id=abc', '?guild_id=1&guild_id=2', '?guild_id=%FF', '?page=-1&guild_id=1', '?guild_id=18446744073709551616'];

describe('malformed requests', () => {
  it('never answer 500, and answer 400/422 (or another envelope error) to every route', async () => {
    const seen = new Set<number>();
    for (const route of routes.filter((r) => r.access !== 'public')) {
      const path = route.path.replace(/\{[^}]+\}/g, 'x');
      const attempts =
        route.method === 'GET' ? QUERIES.map((q) => service.call('GET', path + q)) : BODIES.map((rawBody) => service.call(route.method, path, { rawBody }));
      for (const res of await Promise.all(attempts)) {
        seen.add(res.status);
        expect(res.status, `${route.method} ${route.path}: ${res.text}`).toBeLessThan(500);
        expect(res.body?.success, `${route.method} ${route.path}: ${res.text}`).toBeTypeOf('boolean');
      }
    }
    expect(seen.has(400)).toBe(true);
  });

  it('answer 400 with the reason for bodies that are not a JSON object', async () => {
    for (const rawBody of ['', '{', '[]', 'null', '"text"', '7']) {
      const res = await service.call('POST', '/modules/polls/enable', { rawBody });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^Bad Request! The request body (must be a JSON object|is not valid JSON)/);
    }
  });
});

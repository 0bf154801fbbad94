import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULES } from '#shared/modules/names.js';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

describe('routes, methods and versions', () => {
  it('answers 404 in the envelope for a path no route has, before asking for credentials', async () => {
    const res = await service.call('GET', '/modules/nothing-here', { token: null });
    expect(res.status).toBe(404);
    expect(errorOf(res)).toEqual({
      code: 404,
      name: 'NotFoundError',
      message: 'Not Found! No route GET /modules/nothing-here; see /openapi.json for the routes this service has.',
    });
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const res = await service.call('DELETE', '/modules/polls/status', { token: null });
    expect(res.status).toBe(405);
    expect(errorOf(res).name).toBe('MethodNotAllowedError');
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('serves every path under /v1 too', async () => {
    const guild = snowflake();
    const plain = await service.call('GET', '/modules/tags/status', { query: { guild_id: guild } });
    const versioned = await service.call('GET', '/v1/modules/tags/status', { query: { guild_id: guild } });
    expect(versioned.status).toBe(200);
    expect(versioned.body).toEqual(plain.body);
    expect((await service.call('GET', '/v1/nope', { token: null })).status).toBe(404);
  });

  it('answers every module home without credentials, naming the module route', async () => {
    for (const module of MODULES) {
      const res = await service.call('GET', `/modules/${module}/`, { token: null });
      expect(res.status, module).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.message).toContain(module);
    }
    for (const module of ['polls', 'socials']) {
      const res = await service.call('GET', `/modules/${module}/handler`, { token: null });
      expect(res.status).toBe(200);
      expect(res.body.data.message).toContain(`/modules/${module}/handler`);
    }
  });

  it('reports liveness and readiness', async () => {
    const live = await service.call('GET', '/livez', { token: null });
    expect(live.body).toEqual({ success: true, data: { status: 'ok' } });
    const ready = await service.call('GET', '/readyz', { token: null });
    expect(ready.status).toBe(200);
    expect(ready.body.data.status).toBe('ok');
  });

  it('serves an OpenAPI 3.1 document with every route, its security and its errors', async () => {
    const res = await service.call('GET', '/openapi.json', { token: null });
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    const { routes } = await import('#functions/routes.js');
    for (const route of routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.security[0] ?? null).toEqual(route.access === 'public' ? null : { bearerAuth: [] });
      if (route.access !== 'public') expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    }
    const status = doc.paths['/modules/polls/status'].get;
    expect(status.parameters).toContainEqual(expect.objectContaining({ name: 'guild_id', in: 'query', required: true }));
    const enable = doc.paths['/modules/polls/enable'].post;
    expect(enable.requestBody.content['application/json'].schema.required).toContain('guild_id');
    const conflict = doc.components.responses[enable.responses['409'].$ref.split('/').pop()];
    expect(conflict['x-error-names']).toContain('ModuleEnabledError');
  });

  it('serves a docs page that renders the document with no outside assets', async () => {
    const res = await service.call('GET', '/docs', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain("'/docs/redoc.standalone.js'");
    expect(res.text).toContain("'/openapi.json'");
    expect(res.text).not.toMatch(/<(script|link)[^>]+(src|href)=["']?https?:/);
    const renderer = await service.call('GET', '/docs/redoc.standalone.js', { token: null });
    expect(renderer.status).toBe(200);
    expect(renderer.headers.get('content-type')).toContain('javascript');
    expect(renderer.text).not.toContain('cdn.redoc.ly');
    // The browser test (test/browser/docs.test.ts) renders it and lists every route.
  });
});

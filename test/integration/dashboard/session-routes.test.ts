import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import type { Route } from '#shared/http/route.js';
import { type FakeOAuth, csrfOf, fakeOAuth, signIn } from '#test/helpers/dashboard.js';
import { jsonText, sampleRequest } from '#test/helpers/schema-samples.js';
import { type TestService, snowflake, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';

/**
 * Behaviour §19, generated from the route table as the ownership test is:
 * every route a session can reach at all (every client route) refuses a
 * guild where the member lacks Manage Server and Administrator, and one the
 * bot is not in; every change refuses a missing or forged CSRF token, even
 * in the member's own guild; every internal route refuses a session with
 * its token. Each with 403, and the table holds afterwards what it held
 * before.
 */
let service: TestService;
let oauth: FakeOAuth;
let cookie: string;
let csrf: string;
const own = snowflake();
const noRight = snowflake();
const noBot = snowflake();

const sessionRoutes = routes.filter((r) => r.access === 'client');
const internalRoutes = routes.filter((r) => r.access === 'internal');
const changes = sessionRoutes.filter((r) => r.method !== 'GET');

beforeAll(async () => {
  // Hundreds of requests of one member: past a guild key's rate, which a session has too.
  service = await startTestService({ guildKeyRate: 100_000 });
  oauth = fakeOAuth();
  const { origin } = sandboxOf(service);
  for (const id of [own, noRight]) {
    await fetch(`${origin}/_sandbox/guilds/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `guild ${id}` }),
    });
  }
  const member = snowflake();
  oauth.guilds.set(member, [
    { id: own, name: 'own', owner: false, permissions: String(1 << 5) },
    { id: noRight, name: 'no right', owner: false, permissions: String((1 << 10) | (1 << 11)) },
    { id: noBot, name: 'no bot', owner: true, permissions: '0' },
  ]);
  ({ cookie } = await signIn(service.url, member));
  csrf = await csrfOf(service.url, cookie);
});
afterAll(async () => {
  oauth.restore();
  await service.stop();
});

/** The route's sample request, in `guildId`, as the browser would send it with the session. */
function send(route: Route, guildId: string, token: string | undefined) {
  const sample = sampleRequest(route);
  const path = route.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => encodeURIComponent(sample.path[name] ?? '1'));
  const url = new URL(service.url + path);
  for (const [k, v] of Object.entries(sample.query)) url.searchParams.set(k, k === 'guild_id' ? guildId : v);
  const body =
    sample.body && typeof sample.body === 'object' ? { ...(sample.body as object), ...('guild_id' in sample.body ? { guild_id: guildId } : {}) } : sample.body;
  return fetch(url, {
    method: route.method,
    headers: { cookie, ...(token ? { 'x-csrf-token': token } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : jsonText(body),
  });
}

const table = async () =>
  ((await db().send(new ScanCommand({ TableName: tableName() }))).Items ?? [])
    .filter((item) => !String(item.entity).startsWith('dashboard_'))
    .map((item) => JSON.stringify(item))
    .sort();

describe('every route a session may call checks the guild and the CSRF token (generated from the route table)', () => {
  it('covers the client routes and the internal ones', () => {
    expect(sessionRoutes.length).toBeGreaterThan(80);
    expect(changes.length).toBeGreaterThan(40);
    expect(internalRoutes.length).toBeGreaterThan(40);
  });

  it('refuses each client route in a guild without the right and one without the bot, and each change without its CSRF token, changing nothing', async () => {
    const before = await table();
    const wrong: string[] = [];
    for (const route of sessionRoutes) {
      const cases: [string, string, string | undefined, RegExp][] = [
        ['no right', noRight, csrf, /Manage Server or Administrator/],
        ['no bot', noBot, csrf, /and the bot there/],
      ];
      if (route.method !== 'GET') {
        cases.push(['no CSRF token', own, undefined, /CSRF/], ['a forged CSRF token', own, `${csrf.slice(1)}x`, /CSRF/]);
      }
      for (const [what, guildId, token, reason] of cases) {
        const res = await send(route, guildId, token);
        const text = await res.text();
        if (res.status !== 403 || !reason.test(text)) wrong.push(`${route.method} ${route.path} (${what}): ${res.status} ${text.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await table()).toEqual(before);
  });

  it('refuses every internal route to a session, with its CSRF token, in its own guild', async () => {
    const wrong: string[] = [];
    for (const route of internalRoutes) {
      const res = await send(route, own, csrf);
      const text = await res.text();
      if (res.status !== 403 || !text.includes('internal')) wrong.push(`${route.method} ${route.path}: ${res.status} ${text.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveClockForward } from '#shared/clock.js';
import { type FakeOAuth, cookiePair, csrfOf, fakeOAuth, signIn } from '#test/helpers/dashboard.js';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';

/**
 * Behaviour §19: signing in with the platform's OAuth2, the session as a
 * credential (a guild key's reach, only in guilds the member may configure
 * where the bot is, every change with the session's CSRF token), logout.
 */
let service: TestService;
let oauth: FakeOAuth;
const MANAGE_GUILD = String(1 << 5);
const ADMINISTRATOR = String(1 << 3);
const guild = snowflake();
const noBot = snowflake();
const noRight = snowflake();

beforeAll(async () => {
  service = await startTestService();
  oauth = fakeOAuth();
  const sandbox = sandboxOf(service);
  for (const [id, name] of [
    [guild, 'Managed guild'],
    [noRight, 'Guild without the right'],
  ]) {
    await fetch(`${sandbox.origin}/_sandbox/guilds/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
  }
});
afterAll(async () => {
  oauth.restore();
  await service.stop();
});

function member(permissions = MANAGE_GUILD) {
  const id = snowflake();
  oauth.guilds.set(id, [
    { id: guild, name: 'Managed guild', owner: false, permissions },
    { id: noBot, name: 'Guild without the bot', owner: false, permissions: ADMINISTRATOR },
    { id: noRight, name: 'Guild without the right', owner: false, permissions: '0' },
  ]);
  return id;
}

const call = (method: string, path: string, cookie: string, options: { csrf?: string; body?: unknown; query?: Record<string, string> } = {}) => {
  const url = new URL(service.url + path);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  return fetch(url, {
    method,
    redirect: 'manual',
    headers: { cookie, ...(options.csrf ? { 'x-csrf-token': options.csrf } : {}), ...(options.body ? { 'content-type': 'application/json' } : {}) },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
};
const enabled = async (guildId: string) => (await service.call('GET', '/modules/polls/status', { query: { guild_id: guildId } })).body.data.status as boolean;

describe('signing in', () => {
  it('sends the browser to the platform with identify guilds and a state bound to it by a signed, HttpOnly, SameSite=Lax cookie', async () => {
    const login = await fetch(`${service.url}/dashboard/login`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    const to = new URL(login.headers.get('location')!);
    expect(to.pathname).toBe('/oauth2/authorize');
    expect(to.searchParams.get('scope')).toBe('identify guilds');
    expect(to.searchParams.get('response_type')).toBe('code');
    expect(to.searchParams.get('redirect_uri')).toBe(`${service.url}/dashboard/callback`);
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^gmms_login=[^;]+\.[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    // Local mode is plain http: a Secure cookie would never come back.
    expect(cookie).not.toContain('Secure');
  });

  it('starts a session of at most 12 hours whose page lists the guilds the member may configure', async () => {
    const { cookie, setCookie } = await signIn(service.url, member());
    expect(setCookie).toMatch(/^gmms_session=[^;]+; Max-Age=(\d+); Path=\/; HttpOnly; SameSite=Lax$/);
    expect(Number(/Max-Age=(\d+)/.exec(setCookie)![1])).toBeLessThanOrEqual(12 * 3600);
    const page = await call('GET', '/dashboard', cookie);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(`href="/dashboard/guilds/${guild}"`);
    expect(html).not.toContain(`href="/dashboard/guilds/${noRight}"`);
    expect(html).not.toContain(`href="/dashboard/guilds/${noBot}"`);
    expect(html).toContain('Guild without the bot');
  });

  it('answers a replayed state with the 400 page, even from the browser that started it', async () => {
    const id = member();
    const login = await fetch(`${service.url}/dashboard/login`, { redirect: 'manual' });
    const state = new URL(login.headers.get('location')!).searchParams.get('state')!;
    const loginCookie = cookiePair(login.headers.get('set-cookie'));
    const back = (code: string) =>
      fetch(`${service.url}/dashboard/callback?code=${code}&state=${state}`, { redirect: 'manual', headers: { cookie: loginCookie } });
    expect((await back(`code:${id}`)).status).toBe(302);
    const again = await back(`code:${member()}`);
    expect(again.status).toBe(400);
    expect(again.headers.get('content-type')).toMatch(/^text\/html/);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toContain('was used already');
  });

  it('answers a state from another browser, a forged login cookie and a refused code with the 400 page and no session', async () => {
    const id = member();
    const start = async () => {
      const login = await fetch(`${service.url}/dashboard/login`, { redirect: 'manual' });
      return { state: new URL(login.headers.get('location')!).searchParams.get('state')!, cookie: cookiePair(login.headers.get('set-cookie')) };
    };
    const mine = await start();
    const theirs = await start();
    const forged = `gmms_login=${mine.state}.${'A'.repeat(43)}`;
    for (const cookie of [theirs.cookie, '', forged]) {
      const res = await fetch(`${service.url}/dashboard/callback?code=code:${id}&state=${mine.state}`, { redirect: 'manual', headers: { cookie } });
      expect(res.status).toBe(400);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    const refused = await fetch(`${service.url}/dashboard/callback?code=wrong&state=${mine.state}`, { redirect: 'manual', headers: { cookie: mine.cookie } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('refused');
  });
});

describe('a session as a credential', () => {
  it('reads and changes the guild it may configure, each change with its CSRF token; without one or with a forged one: 403, nothing changed', async () => {
    const { cookie } = await signIn(service.url, member());
    const csrf = await csrfOf(service.url, cookie);
    const status = await call('GET', '/modules/polls/status', cookie, { query: { guild_id: guild } });
    expect(status.status).toBe(200);
    expect(await enabled(guild)).toBe(false);
    for (const token of [undefined, 'forged', `${csrf.slice(0, -1)}${csrf.endsWith('A') ? 'B' : 'A'}`]) {
      const res = await call('POST', '/modules/polls/enable', cookie, { csrf: token, body: { guild_id: guild } });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('CSRF');
    }
    expect(await enabled(guild)).toBe(false);
    const ok = await call('POST', '/modules/polls/enable', cookie, { csrf, body: { guild_id: guild } });
    expect(ok.status).toBe(200);
    expect(await enabled(guild)).toBe(true);
    await service.call('POST', '/modules/polls/disable', { body: { guild_id: guild } });
  });

  it('refuses a guild where the member lacks Manage Server and Administrator, and one the bot is not in: 403, nothing changed', async () => {
    const { cookie } = await signIn(service.url, member());
    const csrf = await csrfOf(service.url, cookie);
    for (const other of [noRight, noBot]) {
      const res = await call('POST', '/modules/polls/enable', cookie, { csrf, body: { guild_id: other } });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(`guild ${other}`);
      expect(await enabled(other)).toBe(false);
      const page = await call('GET', `/dashboard/guilds/${other}`, cookie);
      expect(page.status).toBe(403);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('never reaches an internal operation', async () => {
    const id = member(ADMINISTRATOR);
    const { cookie } = await signIn(service.url, id);
    const csrf = await csrfOf(service.url, cookie);
    const internal = await call('POST', '/modules/polls/privacy/get-user-entries', cookie, { csrf, body: { guild_id: guild, user_id: id } });
    expect([403, 405]).toContain(internal.status);
    const res = await fetch(`${service.url}/modules/polls/privacy/get-user-entries?guild_id=${guild}&user_id=${id}`, { headers: { cookie } });
    expect(res.status).toBe(403);
    expect(errorOf({ status: 403, headers: res.headers, body: await res.json(), text: '' }).message).toContain('internal');
  });

  it('believes the platform on a member losing the right for at most 5 minutes, then reads it again', async () => {
    const id = member();
    const { cookie } = await signIn(service.url, id);
    oauth.guilds.set(id, [{ id: guild, name: 'Managed guild', owner: false, permissions: '0' }]);
    expect((await call('GET', '/modules/polls/status', cookie, { query: { guild_id: guild } })).status).toBe(200);
    moveClockForward(5 * 60 * 1000 + 1000);
    expect((await call('GET', '/modules/polls/status', cookie, { query: { guild_id: guild } })).status).toBe(403);
    // And a member given the right is let in after the same re-read.
    oauth.guilds.set(id, [{ id: guild, name: 'Managed guild', owner: true, permissions: '0' }]);
    moveClockForward(5 * 60 * 1000 + 1000);
    expect((await call('GET', '/modules/polls/status', cookie, { query: { guild_id: guild } })).status).toBe(200);
  });

  it('answers 401 for an altered session cookie', async () => {
    const { cookie } = await signIn(service.url, member());
    const altered = cookie.replace(/=(.)/, (_m, c: string) => `=${c === 'A' ? 'B' : 'A'}`);
    expect((await call('GET', '/modules/polls/status', altered, { query: { guild_id: guild } })).status).toBe(401);
  });
});

describe('signing out', () => {
  it('needs the CSRF token, then ends the session at once and revokes its platform token', async () => {
    const id = member();
    const { cookie } = await signIn(service.url, id);
    const csrf = await csrfOf(service.url, cookie);
    const refused = await call('POST', '/dashboard/logout', cookie);
    expect(refused.status).toBe(403);
    expect((await call('GET', '/modules/polls/status', cookie, { query: { guild_id: guild } })).status).toBe(200);
    const out = await call('POST', `/dashboard/logout?csrf=${encodeURIComponent(csrf)}`, cookie);
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/^gmms_session=; Max-Age=0/);
    expect(oauth.revoked).toContain(`token:${id}`);
    expect((await call('GET', '/modules/polls/status', cookie, { query: { guild_id: guild } })).status).toBe(401);
    expect(await (await call('GET', '/dashboard', cookie)).text()).toContain('Sign in with the platform');
  });
});

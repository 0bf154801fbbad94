/**
 * The sandbox platform's OAuth2 (CONTRACT 19), over HTTP on loopback as a
 * browser and a service would use it: the authorize page, the code's
 * exchange (single use, bound to its redirect URI, the client's secret
 * checked), `/users/@me` and `/users/@me/guilds` for the bearer token with
 * permissions as the platform computes them (ownership, Administrator, role
 * bits, rights given without a role), refresh, and unknown or expired
 * tokens.
 */
import type { APIUser, RESTGetAPICurrentUserGuildsResult, RESTPostOAuth2AccessTokenResult } from 'discord-api-types/v10';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BOT_USER, type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';
import { sandboxControl } from '#test/helpers/sandbox.js';
import { approveAs, memberTokens } from '#test/helpers/oauth2.js';

const GUILD = '300000000000000091';
const OTHER_GUILD = '300000000000000092';
const OWNER = '400000000000000091';
const ADMIN = '400000000000000092';
const MANAGER = '400000000000000093';
const GRANTED = '400000000000000094';
const PLAIN = '400000000000000095';
const OUTSIDER = '400000000000000096';
const ADMINS_ROLE = '500000000000000091';
const MANAGERS_ROLE = '500000000000000092';
const SECRET = 'sandbox-client-secret-for-tests';
const REDIRECT = 'http://127.0.0.1:9/dashboard/callback';
const ALL = String((1n << 64n) - 1n);
const MANAGE_GUILD = 1n << 5n;
const KICK = 1n << 1n;
const VIEW = 1n << 10n;

let sandbox: Sandbox;

const control = sandboxControl(() => sandbox.origin);

const api = async (path: string, authorization: string) => {
  const res = await fetch(`${sandbox.url}${path}`, { headers: { Authorization: authorization } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
};

const token = async (form: Record<string, string>, headers: Record<string, string> = {}) => {
  const res = await fetch(`${sandbox.url}/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const authorizeUrl = (overrides: Record<string, string> = {}) => {
  const url = new URL('/oauth2/authorize', sandbox.origin);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: sandbox.application.client_id,
    scope: 'identify guilds',
    redirect_uri: REDIRECT,
    state: 'browser-state-1',
    ...overrides,
  }).toString();
  return url.toString();
};

const signIn = (userId: string, scope?: string) =>
  memberTokens({ origin: sandbox.origin, clientId: sandbox.application.client_id, clientSecret: SECRET, redirectUri: REDIRECT, userId, scope });

const codeFor = async (userId: string) => (await approveAs(authorizeUrl(), userId)).searchParams.get('code')!;

const exchange = (code: string, extra: Record<string, string> = {}) =>
  token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: sandbox.application.client_id, client_secret: SECRET, ...extra });

beforeAll(async () => {
  sandbox = await startSandbox({ oauth2: { clientSecret: SECRET, redirectUris: [REDIRECT] } });
});
afterAll(() => sandbox.close());

beforeEach(async () => {
  sandbox.reset();
  await control('PUT', `/guilds/${GUILD}`, { name: 'Makers', owner_id: OWNER });
  await control('PUT', `/guilds/${OTHER_GUILD}`, { name: 'Elsewhere' });
  await control('PUT', `/guilds/${GUILD}/roles/${GUILD}`, { name: '@everyone', permissions: String(VIEW) });
  await control('PUT', `/guilds/${GUILD}/roles/${ADMINS_ROLE}`, { name: 'Admins', permissions: String(1n << 3n) });
  await control('PUT', `/guilds/${GUILD}/roles/${MANAGERS_ROLE}`, { name: 'Managers', permissions: String(MANAGE_GUILD | KICK) });
  for (const [user, roles] of [
    [OWNER, []],
    [ADMIN, [ADMINS_ROLE]],
    [MANAGER, [MANAGERS_ROLE]],
    [GRANTED, []],
    [PLAIN, []],
  ] as const) {
    await control('POST', `/guilds/${GUILD}/members/${user}/join`, { roles, username: `user-${user.slice(-2)}` });
  }
  // The other guild tracks its members too, and only the plain member is in it.
  await control('POST', `/guilds/${OTHER_GUILD}/members/${PLAIN}/join`, {});
});

describe('the authorize page', () => {
  it('shows the application, the scopes and the members to pick from, usable without script', async () => {
    const res = await fetch(authorizeUrl());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('Sandbox Bot wants to access your account');
    expect(html).toContain('Know which guilds you are in');
    expect(html).toContain(`id="member-${MANAGER}"`);
    expect(html).toContain('user-93');
    expect(html).not.toMatch(/<script|src="http/);
    expect(html).toContain('name="decision" value="approve"');
  });

  it('lists at most 100 members, and says how many more may be typed in', async () => {
    const many = Array.from({ length: 150 }, (_, i) => String(600000000000000000n + BigInt(i)));
    await control('POST', `/guilds/${GUILD}/members/join-many`, { user_ids: many });
    const html = await (await fetch(authorizeUrl())).text();
    expect(html.match(/name="user_id" value="\d+"/g)).toHaveLength(100);
    expect(html).toContain('and 55 more');
  });

  it.each([
    ['an unknown client', { client_id: '999999999999999999' }, 'Unknown Application'],
    ['a redirect URI not registered', { redirect_uri: 'http://127.0.0.1:9/elsewhere' }, 'Invalid OAuth2 redirect_uri'],
    ['a scope the sandbox lacks', { scope: 'identify email' }, 'Invalid scope: email'],
    ['no scope', { scope: '' }, 'Invalid scope'],
    ['another response type', { response_type: 'token' }, 'Invalid response_type'],
  ])('answers the platform error page for %s, and no redirect', async (_name, overrides, text) => {
    for (const method of ['GET', 'POST'] as const) {
      const url = authorizeUrl(overrides);
      const res =
        method === 'GET'
          ? await fetch(url, { redirect: 'manual' })
          : await fetch(new URL('/oauth2/authorize', sandbox.origin), {
              method,
              redirect: 'manual',
              headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
              body: `${new URL(url).searchParams}&user_id=${MANAGER}&decision=approve`,
            });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain(text);
    }
  });

  it('redirects with access_denied and the state when the person cancels', async () => {
    const back = await approveAs(authorizeUrl(), MANAGER, 'cancel');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('browser-state-1');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('shows the page again at the choice when no member is picked', async () => {
    const form = new URLSearchParams(new URL(authorizeUrl()).searchParams);
    form.set('decision', 'approve');
    const res = await fetch(new URL('/oauth2/authorize', sandbox.origin), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Pick the member you are');
  });

  it('takes a member typed in by ID', async () => {
    const form = new URLSearchParams(new URL(authorizeUrl()).searchParams);
    form.set('user_id', '');
    form.set('other_user_id', OUTSIDER);
    form.set('decision', 'approve');
    const res = await fetch(new URL('/oauth2/authorize', sandbox.origin), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(res.status).toBe(302);
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    const tokens = (await exchange(code)).body as unknown as RESTPostOAuth2AccessTokenResult;
    expect((await api('/users/@me', `Bearer ${tokens.access_token}`)).body.id).toBe(OUTSIDER);
  });
});

describe('the code exchange', () => {
  it('runs the whole flow: approve, exchange, then who the member is and their guilds', async () => {
    const back = await approveAs(authorizeUrl(), MANAGER);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('browser-state-1');
    const code = back.searchParams.get('code')!;
    expect(code).toMatch(/^[\w-]{20,}$/);

    const basic = Buffer.from(`${sandbox.application.client_id}:${SECRET}`).toString('base64');
    const res = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, { Authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 604800,
      refresh_token: expect.any(String),
      scope: 'identify guilds',
    });

    const me = await api('/users/@me', `Bearer ${res.body.access_token}`);
    expect(me.status).toBe(200);
    expect(me.body as APIUser).toMatchObject({ id: MANAGER, username: 'user-93', discriminator: '0' });
    const guilds = await api('/users/@me/guilds', `Bearer ${res.body.access_token}`);
    expect(guilds.status).toBe(200);
    expect(guilds.body as RESTGetAPICurrentUserGuildsResult).toEqual([
      { id: GUILD, name: 'Makers', icon: null, banner: null, owner: false, features: [], permissions: String(VIEW | MANAGE_GUILD | KICK) },
    ]);
  });

  it('takes a code once: a second exchange is invalid_grant and takes back the token the first gave', async () => {
    const code = await codeFor(MANAGER);
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const second = await exchange(code);
    expect(second).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid "code" in request.' } });
    expect((await api('/users/@me', `Bearer ${first.body.access_token}`)).status).toBe(401);
  });

  it('refuses a wrong secret, by Basic or in the body (invalid_client, 401), and the code still works after', async () => {
    const code = await codeFor(MANAGER);
    expect(await exchange(code, { client_secret: 'not-the-secret' })).toEqual({ status: 401, body: { error: 'invalid_client' } });
    const basic = Buffer.from(`${sandbox.application.client_id}:not-the-secret`).toString('base64');
    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, { Authorization: `Basic ${basic}` })).status).toBe(401);
    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).status).toBe(401);
    expect((await exchange(code)).status).toBe(200);
  });

  it('binds the code to its redirect URI', async () => {
    const code = await codeFor(MANAGER);
    expect(await exchange(code, { redirect_uri: 'http://127.0.0.1:9/other' })).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid "redirect_uri" in request.' },
    });
    expect((await exchange(code, { redirect_uri: '' })).body.error).toBe('invalid_request');
  });

  it('refuses an unknown or expired code, and a grant type it does not know', async () => {
    expect((await exchange('no-such-code')).body.error).toBe('invalid_grant');
    const code = await codeFor(MANAGER);
    await control('POST', '/clock', { advance_ms: 11 * 60_000 });
    expect((await exchange(code)).body).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
    expect(await token({ grant_type: 'password', client_id: sandbox.application.client_id, client_secret: SECRET })).toEqual({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
  });

  it('refreshes: a new pair of tokens, the old access token and refresh token no longer work', async () => {
    const first = await signIn(MANAGER);
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: sandbox.application.client_id,
      client_secret: SECRET,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: 'identify guilds' });
    expect(refreshed.body.access_token).not.toBe(first.access_token);
    expect((await api('/users/@me', `Bearer ${refreshed.body.access_token}`)).body.id).toBe(MANAGER);
    expect((await api('/users/@me', `Bearer ${first.access_token}`)).status).toBe(401);
    const again = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: sandbox.application.client_id,
      client_secret: SECRET,
    });
    expect(again).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid "refresh_token" in request.' } });
  });
});

describe('bearer tokens', () => {
  it('answers 401 for an unknown token, an expired one, and a token without the scope', async () => {
    expect(await api('/users/@me', 'Bearer no-such-token')).toEqual({ status: 401, body: { message: '401: Unauthorized', code: 0 } });
    const identifyOnly = await signIn(MANAGER, 'identify');
    expect((await api('/users/@me', `Bearer ${identifyOnly.access_token}`)).status).toBe(200);
    expect((await api('/users/@me/guilds', `Bearer ${identifyOnly.access_token}`)).status).toBe(401);
    const tokens = await signIn(MANAGER);
    await control('POST', '/clock', { advance_ms: 604_800_000 });
    expect((await api('/users/@me', `Bearer ${tokens.access_token}`)).status).toBe(401);
    expect((await api('/users/@me/guilds', `Bearer ${tokens.access_token}`)).status).toBe(401);
  });

  it('is refused where the platform wants the bot token', async () => {
    const tokens = await signIn(MANAGER);
    expect((await api(`/guilds/${GUILD}`, `Bearer ${tokens.access_token}`)).status).toBe(401);
  });

  it('leaves the bot token its own answers', async () => {
    expect((await api('/users/@me', `Bot ${sandbox.botToken}`)).body).toMatchObject({ id: BOT_USER.id, bot: true });
    const guilds = (await api('/users/@me/guilds', `Bot ${sandbox.botToken}`)).body as RESTGetAPICurrentUserGuildsResult;
    expect(guilds.map((g) => g.id)).toEqual([GUILD, OTHER_GUILD]);
  });
});

describe('permissions in /users/@me/guilds, as the platform computes them', () => {
  const guildsOf = async (userId: string) => {
    const tokens = await signIn(userId);
    return (await api('/users/@me/guilds?with_counts=true', `Bearer ${tokens.access_token}`)).body as RESTGetAPICurrentUserGuildsResult;
  };
  const inGuild = async (userId: string) => (await guildsOf(userId)).find((g) => g.id === GUILD);

  it('gives the owner every permission', async () => {
    expect(await inGuild(OWNER)).toMatchObject({ owner: true, permissions: ALL, approximate_member_count: 5 });
  });

  it('gives a member with an Administrator role every permission', async () => {
    expect(await inGuild(ADMIN)).toMatchObject({ owner: false, permissions: ALL });
  });

  it("adds the member's roles' bits to @everyone's", async () => {
    expect((await inGuild(MANAGER))?.permissions).toBe(String(VIEW | MANAGE_GUILD | KICK));
    expect((await inGuild(PLAIN))?.permissions).toBe(String(VIEW));
  });

  it('lists only the guilds the member is in', async () => {
    expect((await guildsOf(PLAIN)).map((g) => g.id)).toEqual([GUILD, OTHER_GUILD]);
    expect((await guildsOf(MANAGER)).map((g) => g.id)).toEqual([GUILD]);
    expect(await guildsOf(OUTSIDER)).toEqual([]);
  });

  it('adds the rights given without a role, takes them back with "0", and drops them when the member leaves', async () => {
    const given = await control('PUT', `/guilds/${GUILD}/members/${GRANTED}/permissions`, { permissions: String(MANAGE_GUILD) });
    expect(given).toEqual({ status: 200, body: { permissions: String(VIEW | MANAGE_GUILD) } });
    expect((await inGuild(GRANTED))?.permissions).toBe(String(VIEW | MANAGE_GUILD));
    await control('PUT', `/guilds/${GUILD}/members/${GRANTED}/permissions`, { permissions: String(1n << 3n) });
    expect((await inGuild(GRANTED))?.permissions).toBe(ALL);
    await control('PUT', `/guilds/${GUILD}/members/${GRANTED}/permissions`, { permissions: '0' });
    expect((await inGuild(GRANTED))?.permissions).toBe(String(VIEW));

    await control('PUT', `/guilds/${GUILD}/members/${GRANTED}/permissions`, { permissions: String(MANAGE_GUILD) });
    await control('POST', `/guilds/${GUILD}/members/${GRANTED}/leave`);
    await control('POST', `/guilds/${GUILD}/members/${GRANTED}/join`, {});
    expect((await inGuild(GRANTED))?.permissions).toBe(String(VIEW));
  });

  it('shows the rights given in the state the page reads', async () => {
    await control('PUT', `/guilds/${GUILD}/members/${GRANTED}/permissions`, { permissions: String(MANAGE_GUILD) });
    const state = (await control('GET', '/state')).body as { guilds: { id: string; owner_id: string | null; grants: Record<string, string> }[] };
    expect(state.guilds.find((g) => g.id === GUILD)).toMatchObject({ owner_id: OWNER, grants: { [GRANTED]: String(MANAGE_GUILD) } });
  });

  it('checks the control route: bits as a decimal string, a member of the guild', async () => {
    for (const permissions of [32, 'lots', '-1', String(1n << 64n), undefined]) {
      const res = await control('PUT', `/guilds/${GUILD}/members/${GRANTED}/permissions`, { permissions });
      expect(res.status).toBe(400);
      expect(res.body.errors.permissions._errors[0].code).toBe('NUMBER_TYPE_COERCE');
    }
    expect((await control('PUT', `/guilds/${GUILD}/members/${OUTSIDER}/permissions`, { permissions: '32' })).body).toEqual({
      message: 'Unknown Member',
      code: 10007,
    });
    expect((await inGuild(GRANTED))?.permissions).toBe(String(VIEW));
  });

  it('checks the guild control route owner_id', async () => {
    const res = await control('PUT', `/guilds/${GUILD}`, { name: 'Makers', owner_id: 'me' });
    expect(res.status).toBe(400);
    expect(res.body.errors.owner_id._errors[0].code).toBe('NUMBER_TYPE_COERCE');
  });
});

describe('the registered redirect URIs', () => {
  it('are read and set through the control route, never showing the secret', async () => {
    const shown = await control('GET', '/application/oauth2');
    expect(shown.body).toEqual({ client_id: BOT_USER.id, redirect_uris: [REDIRECT] });
    const other = 'http://127.0.0.1:9/v1/dashboard/callback';
    expect((await control('PUT', '/application/oauth2', { redirect_uris: [REDIRECT, other] })).body.redirect_uris).toEqual([REDIRECT, other]);
    expect((await approveAs(authorizeUrl({ redirect_uri: other }), MANAGER)).pathname).toBe('/v1/dashboard/callback');
    expect((await control('PUT', '/application/oauth2', { redirect_uris: ['not a url'] })).status).toBe(400);
    await control('PUT', '/application/oauth2', { redirect_uris: [REDIRECT] });
    expect(JSON.stringify((await control('GET', '/state')).body)).not.toContain(SECRET);
  });
});

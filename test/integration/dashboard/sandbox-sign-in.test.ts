import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveClockForward } from '#shared/clock.js';
import { cookiePair } from '#test/helpers/dashboard.js';
import { type TestService, snowflake, startTestService } from '#test/helpers/local.js';
import { approveAs } from '#test/helpers/oauth2.js';
import { sandboxOf } from '#test/helpers/sandbox.js';

/**
 * Behaviour §19 end to end with the sandbox's OAuth2 as local mode
 * registers the service on it: the platform computes the member's rights
 * (a right given without a role, then taken away), the dashboard believes
 * it for at most 5 minutes.
 */
let service: TestService;
let control: (method: string, path: string, body?: unknown) => Promise<Response>;
beforeAll(async () => {
  service = await startTestService();
  const { origin } = sandboxOf(service);
  control = (method, path, body) =>
    fetch(`${origin}/_sandbox${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
});
afterAll(() => service.stop());

async function signInThroughSandbox(member: string): Promise<string> {
  const login = await fetch(`${service.url}/dashboard/login`, { redirect: 'manual' });
  const back = await approveAs(login.headers.get('location')!, member);
  expect(`${back.origin}${back.pathname}`).toBe(`${service.url}/dashboard/callback`);
  const callback = await fetch(back, { redirect: 'manual', headers: { cookie: cookiePair(login.headers.get('set-cookie')) } });
  expect(callback.status).toBe(302);
  return cookiePair(callback.headers.get('set-cookie'));
}

describe('signing in through the sandbox platform', () => {
  it('acts where the platform gives the member Manage Server, and stops within 5 minutes of the platform taking it away', async () => {
    const guild = snowflake();
    const member = snowflake();
    await control('PUT', `/guilds/${guild}`, { name: 'Sandbox guild' });
    await control('POST', `/guilds/${guild}/members/${member}/join`, { username: 'ada' });
    await control('PUT', `/guilds/${guild}/members/${member}/permissions`, { permissions: String(1 << 5) });
    const cookie = await signInThroughSandbox(member);
    const status = () => fetch(`${service.url}/modules/polls/status?guild_id=${guild}`, { headers: { cookie } });
    expect((await status()).status).toBe(200);
    expect(await (await fetch(`${service.url}/dashboard`, { headers: { cookie } })).text()).toContain('Sandbox guild');

    await control('PUT', `/guilds/${guild}/members/${member}/permissions`, { permissions: '0' });
    expect((await status()).status).toBe(200);
    moveClockForward(5 * 60 * 1000 + 1000);
    expect((await status()).status).toBe(403);
  });

  it('lists no guild for a member without the right, and refuses its page', async () => {
    const guild = snowflake();
    const member = snowflake();
    await control('PUT', `/guilds/${guild}`, { name: 'Not theirs' });
    await control('POST', `/guilds/${guild}/members/${member}/join`, { username: 'bob' });
    const cookie = await signInThroughSandbox(member);
    expect(await (await fetch(`${service.url}/dashboard`, { headers: { cookie } })).text()).toContain('You manage no guild the bot is in.');
    expect((await fetch(`${service.url}/dashboard/guilds/${guild}`, { headers: { cookie } })).status).toBe(403);
  });
});

/**
 * The sandbox platform's OAuth2 authorize page in a real browser (CONTRACT
 * 19), used with the keyboard alone: the person moves to the member they
 * are, approves, and the browser lands on the service's callback with a code
 * and the state; a member given rights without a role shows them on the
 * sandbox page.
 */
import { describe, expect, it } from 'vitest';
import { platformOAuth2Config } from '#shared/platform/oauth2-config.js';
import { browserAndService, hasBrowser } from '../helpers/browser.js';
import { snowflake } from '../helpers/local.js';

const env = browserAndService();

const control = (method: string, path: string, body: unknown) =>
  fetch(`${env.service.sandboxUrl!.replace(/\/api\/v10$/, '')}/_sandbox${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe.skipIf(!hasBrowser)('the sandbox authorize page', () => {
  it('is used with the keyboard: pick the member, approve, back at the callback with the code and the state', async () => {
    const guild = snowflake();
    const [ada, bob] = [snowflake(), snowflake()].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)) as [string, string];
    await control('POST', `/guilds/${guild}/members/${ada}/join`, { username: 'ada', global_name: 'Ada' });
    await control('POST', `/guilds/${guild}/members/${bob}/join`, { username: 'bob', global_name: 'Bob' });
    const config = (await platformOAuth2Config())!;
    const authorize = new URL(config.authorizeUrl);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: config.clientId,
      scope: 'identify guilds',
      redirect_uri: config.redirectUri,
      state: 'kbd-state',
    }).toString();

    const page = await env.browser.newPage();
    await page.goto(authorize.toString());
    expect(await page.locator('h1').textContent()).toContain('wants to access your account');
    const radios = page.getByRole('radio');
    const names = await Promise.all((await radios.all()).map((radio) => radio.getAttribute('value')));
    expect(names).toContain(ada);
    expect(names).toContain(bob);
    // Tab into the group, then arrows until Bob is chosen, then on to Authorize.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    while ((await page.evaluate<string>('document.activeElement.value')) !== bob) await page.keyboard.press('ArrowDown');
    expect(await page.locator(`#member-${bob}`).isChecked()).toBe(true);
    await page.keyboard.press('Tab'); // another member's ID
    await page.keyboard.press('Tab'); // Cancel
    await page.keyboard.press('Tab'); // Authorize
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Authorize');
    await Promise.all([page.waitForURL((url) => url.pathname.endsWith('/dashboard/callback')), page.keyboard.press('Enter')]);
    const back = new URL(page.url());
    expect(`${back.origin}${back.pathname}`).toBe(config.redirectUri);
    expect(back.searchParams.get('state')).toBe('kbd-state');
    const code = back.searchParams.get('code')!;
    const exchanged = await fetch(config.tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: config.redirectUri }).toString(),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const me = await fetch(`${config.apiBaseUrl}/users/@me`, { headers: { authorization: `Bearer ${exchanged.access_token}` } }).then((r) => r.json());
    expect(me).toMatchObject({ id: bob, username: 'bob' });
    await page.close();
  });

  it('shows the owner and the rights given without a role among the members', async () => {
    const guild = snowflake();
    const owner = snowflake();
    const helper = snowflake();
    const channel = snowflake();
    await control('PUT', `/guilds/${guild}`, { name: 'Owned', owner_id: owner });
    await control('POST', `/guilds/${guild}/members/${owner}/join`, { username: 'olive' });
    await control('POST', `/guilds/${guild}/members/${helper}/join`, { username: 'hal' });
    await control('PUT', `/guilds/${guild}/members/${helper}/permissions`, { permissions: '32' });
    await control('PUT', `/channels/${channel}`, { guild_id: guild, name: 'owned-general' });
    const page = await env.browser.newPage();
    await page.goto(`${env.service.sandboxUrl!.replace(/\/api\/v10$/, '')}/`);
    await page.getByRole('button', { name: /# owned-general/ }).click();
    await expect.poll(() => page.locator(`#people-list [data-u="${helper}"] .roles`).textContent()).toContain('+32');
    expect(await page.locator(`#people-list [data-u="${owner}"] .roles`).textContent()).toContain('owner');
    await page.close();
  });
});

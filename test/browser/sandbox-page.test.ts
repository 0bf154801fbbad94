/** The sandbox platform's page in a real browser: what the bot posted, as a chat client shows it, following live. */
import { describe, expect, it } from 'vitest';
import { browserAndService, hasBrowser } from '../helpers/browser.js';
import { snowflake } from '../helpers/local.js';
import { sandboxOf } from '../helpers/sandbox.js';

const env = browserAndService();

describe.skipIf(!hasBrowser)('the sandbox page', () => {
  it('renders markdown, mentions as names, local times, embeds, controls and reactions, newest at the bottom, and follows live', async () => {
    const guild = snowflake();
    const channel = snowflake();
    const member = snowflake();
    const origin = env.service.sandboxUrl!.replace(/\/api\/v10$/, '');
    await fetch(`${origin}/_sandbox/guilds/${guild}/members/${member}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ada', global_name: 'Ada' }),
    });
    await fetch(`${origin}/_sandbox/channels/${channel}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ guild_id: guild, name: 'general' }),
    });
    const post = (body: unknown) =>
      fetch(`${env.service.sandboxUrl}/channels/${channel}/messages`, {
        method: 'POST',
        headers: { authorization: 'Bot x', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ id: string }>);
    await post({ content: `Welcome <@${member}> to **the guild**! Ends <t:1893456000:R> <script>alert(1)</script>` });
    const last = await post({
      embeds: [{ title: 'Giveaway', description: 'Win a *mug*', fields: [{ name: 'Winners', value: '2' }] }],
      components: [{ type: 1, components: [{ type: 2, style: 3, label: 'Enter', custom_id: 'giveaway:enter:x' }] }],
    });
    await sandboxOf(env.service).react(channel, last.id, '🎉', member);

    const page = await env.browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: /# general/ }).click();
    const messages = page.locator('#messages .msg');
    await expect.poll(() => messages.count()).toBe(2);
    const first = messages.nth(0);
    expect(await first.locator('b').first().textContent()).toBe('the guild');
    expect(await first.locator('.mention').first().textContent()).toBe('@Ada');
    expect(await first.textContent()).toContain('<script>alert(1)</script>');
    expect(await first.textContent()).not.toContain('<t:');
    const second = messages.nth(1);
    expect(await second.locator('.embed .t').textContent()).toBe('Giveaway');
    expect(await second.locator('.embed i').textContent()).toBe('mug');
    expect(await second.getByRole('button', { name: 'Enter' }).isVisible()).toBe(true);
    expect(await second.locator('.react').textContent()).toContain('🎉 1');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBeLessThanOrEqual(0);

    await post({ content: 'A third message, posted while the page is open' });
    await expect.poll(() => messages.count(), { timeout: 10_000 }).toBe(3);
    expect(await messages.nth(2).textContent()).toContain('A third message');
    await page.screenshot({ path: `${process.env.TMPDIR ?? '/tmp'}/sandbox-page.png`, fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('follows a change made through a control route from the change notices: no reload, no polling, the rest of the page left as it was', async () => {
    const guild = snowflake();
    const channel = snowflake();
    const member = snowflake();
    const origin = env.service.sandboxUrl!.replace(/\/api\/v10$/, '');
    const control = (method: string, path: string, body: unknown) =>
      fetch(`${origin}/_sandbox${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await control('PUT', `/channels/${channel}`, { guild_id: guild, name: 'live' });
    await control('POST', `/channels/${channel}/messages`, { author_id: member, content: 'First words' });

    const page = await env.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const stateReads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/_sandbox/state') stateReads.push(request.url());
    });
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: /# live/ }).click();
    const messages = page.locator('#messages .msg');
    await expect.poll(() => messages.count()).toBe(1);
    await expect.poll(() => page.locator('#live').textContent()).toBe('● live');
    await page.evaluate("window.__sameDocument = true; window.__firstMessage = document.querySelector('#messages .msg')");
    // Longer than the 2 s the page used to poll at: nothing changed, so nothing is read.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(stateReads).toEqual([]);

    await control('POST', `/channels/${channel}/messages`, { author_id: member, content: 'Second words, sent while the page is open' });
    await expect.poll(() => messages.count(), { timeout: 5_000 }).toBe(2);
    expect(await messages.nth(1).textContent()).toContain('Second words');
    expect(stateReads.length).toBeGreaterThanOrEqual(1);
    expect(await page.evaluate<boolean>('window.__sameDocument === true')).toBe(true);
    // Only the new message was added: the one shown before is the same element.
    expect(await page.evaluate<boolean>("window.__firstMessage === document.querySelector('#messages .msg')")).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('shows what the socials sources publish, and their requests', async () => {
    const origin = env.service.sandboxUrl!.replace(/\/api\/v10$/, '');
    const control = (path: string, body: unknown) =>
      fetch(`${origin}/_sandbox/sources${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await control('/feeds', { name: 'news', format: 'atom', title: 'Guild news' });
    await control('/feeds/news/entries', { title: 'Patch <b>notes</b> 1.2', link: 'https://example.org/notes' });
    await control('/stream/caster', {});
    await control('/stream/caster/live', { title: 'Speedrun night' });
    await fetch(`${origin}/sources/feeds/news`);

    const page = await env.browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: /What the sources publish/ }).click();
    const box = page.locator('#messages');
    await expect.poll(() => box.textContent()).toContain('ATOM feed news · Guild news');
    expect(await box.getByRole('link', { name: 'Patch <b>notes</b> 1.2' }).getAttribute('href')).toBe('https://example.org/notes');
    expect(await box.textContent()).toContain('Stream caster · live');
    expect(await box.textContent()).toContain('Speedrun night');
    expect(await box.textContent()).toMatch(/Requests received: .*feed 1/);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});

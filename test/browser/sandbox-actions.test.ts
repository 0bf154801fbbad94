/**
 * A person acting on the sandbox page with the mouse, as a member they
 * choose: joining, posting, reacting, clicking a button whose answer is a
 * modal, filling it in, and reading their own ephemeral answer. The bot's
 * part is played here through the platform's REST routes.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';
import { hasBrowser, launchBrowser } from '#test/helpers/browser.js';
import { sandboxCall } from '#test/helpers/sandbox.js';

const GUILD = '300000000000000008';
const CHANNEL = '200000000000000008';
const MEMBER = '400000000000000008';

let sandbox: Sandbox;
let browser: Browser;

const state = () => sandboxCall('GET', `${sandbox.origin}/_sandbox/state`);

describe.skipIf(!hasBrowser)('acting on the sandbox page', () => {
  beforeAll(async () => {
    sandbox = await startSandbox();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('joins, posts, reacts, clicks a button, fills in the modal the bot answers with, and sees its own answer', async () => {
    await sandboxCall('PUT', `${sandbox.origin}/_sandbox/channels/${CHANNEL}`, { guild_id: GUILD, name: 'general' });
    const posted = await sandboxCall('POST', `${sandbox.url}/channels/${CHANNEL}/messages`, {
      content: 'Verify here',
      components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Verify', custom_id: 'verify:start' }] }],
    });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('dialog', (dialog) => dialog.accept('👍'));
    await page.goto(`${sandbox.origin}/`);
    await page.getByRole('button', { name: /# general/ }).click();
    await page.fill('#actor', MEMBER);
    await page.press('#actor', 'Tab');

    await page.getByRole('button', { name: 'Join guild' }).click();
    await expect.poll(async () => Object.keys((await state()).guilds[0]?.members ?? {})).toEqual([MEMBER]);

    await page.fill('#say', 'hello <b>all</b>');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('#messages .msg').count()).toBe(2);
    expect(await page.locator('#messages .msg').nth(1).textContent()).toContain('hello <b>all</b>');

    await page.locator('#messages .msg').first().locator('[data-act="react-new"]').click();
    await expect
      .poll(async () =>
        (await sandboxCall('GET', `${sandbox.url}/channels/${CHANNEL}/messages/${posted.id}/reactions/${encodeURIComponent('👍')}`)).map((u: any) => u.id),
      )
      .toEqual([MEMBER]);

    await page.getByRole('button', { name: 'Verify' }).click();
    let started: any;
    await expect.poll(async () => (started = (await state()).started.find((i: any) => i.custom_id === 'verify:start'))).toBeTruthy();
    expect(started.user_id).toBe(MEMBER);
    await sandboxCall('POST', `${sandbox.url}/interactions/${started.id}/${started.token}/callback`, {
      type: 9,
      data: {
        custom_id: 'verify:modal',
        title: 'Passphrase',
        components: [{ type: 1, components: [{ type: 4, custom_id: 'passphrase', label: 'Passphrase', style: 1 }] }],
      },
    });
    await page.locator('dialog[open] input[name="passphrase"]').fill('open sesame');
    await page.locator('dialog button[value="submit"]').click();
    let submitted: any;
    await expect.poll(async () => (submitted = (await state()).started.find((i: any) => i.type === 5))).toBeTruthy();
    const shown = await sandboxCall('GET', `${sandbox.origin}/_sandbox/interactions/${submitted.id}`);
    expect(shown.interaction.data.components[0].components[0].value).toBe('open sesame');
    await sandboxCall('POST', `${sandbox.url}/interactions/${submitted.id}/${submitted.token}/callback`, {
      type: 4,
      data: { content: 'You are verified.', flags: 64 },
    });

    await page.getByRole('button', { name: /Interaction answers/ }).click();
    await expect.poll(() => page.locator('#messages').textContent(), { timeout: 10_000 }).toContain('You are verified.');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('takes the first click straight after typing into "Acting as", and shows the answer in a status line that stays in view', async () => {
    const channel = '200000000000000018';
    const member = '400000000000000018';
    await sandboxCall('PUT', `${sandbox.origin}/_sandbox/channels/${channel}`, { guild_id: '300000000000000018', name: 'prizes' });
    for (let i = 0; i < 15; i++) await sandboxCall('POST', `${sandbox.url}/channels/${channel}/messages`, { content: `Earlier message ${i}` });
    await sandboxCall('POST', `${sandbox.url}/channels/${channel}/messages`, {
      content: 'A prize to claim',
      components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Claim', custom_id: 'prize:claim' }] }],
    });
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${sandbox.origin}/`);
    await page.getByRole('button', { name: /# prizes/ }).click();
    await page.fill('#actor', member);
    // No Tab: leaving the field as the mouse goes down on the button must not lose the click.
    await page.getByRole('button', { name: 'Claim' }).click();
    let started: any;
    await expect.poll(async () => (started = (await state()).started.find((i: any) => i.custom_id === 'prize:claim')), { timeout: 5_000 }).toBeTruthy();
    expect(started.user_id).toBe(member);

    await sandboxCall('POST', `${sandbox.url}/interactions/${started.id}/${started.token}/callback`, {
      type: 4,
      data: { content: `You claimed **the mug**, <@${member}>.`, flags: 64 },
    });
    const status = page.locator('#status');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('The bot answered: You claimed the mug, @member-0018.');
    const inView = () =>
      page.evaluate<boolean>(
        "(() => { const box = document.getElementById('status').getBoundingClientRect(); return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight; })()",
      );
    expect(await page.evaluate<boolean>('document.documentElement.scrollHeight > window.innerHeight * 2')).toBe(true);
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    expect(await inView()).toBe(true);
    await page.evaluate('window.scrollTo(0, 0)');
    expect(await inView()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});

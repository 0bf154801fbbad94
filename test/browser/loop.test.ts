/**
 * The whole loop in a real browser: a person on the sandbox page, acting as
 * a member, clicks a poll's answer button; the click goes through the
 * sandbox's gateway, the reference bot and the service, and the page shows
 * the new count on the poll message.
 */
import { describe, expect, it } from 'vitest';
import { browserAndService, hasBrowser } from '#test/helpers/browser.js';
import { snowflake } from '#test/helpers/local.js';
import { createPoll, pollGuild } from '#test/integration/polls/helpers.js';
import { addEntry, createPanel, enabledGuild } from '#test/integration/reactionroles/fixture.js';
import { sandboxOf } from '#test/helpers/sandbox.js';

const env = browserAndService({ bot: true });

describe.skipIf(!hasBrowser)('the whole loop on the sandbox page', () => {
  it('a click on a poll button shows the counted vote on the message', async () => {
    const where = await pollGuild(env.service);
    const poll = await createPoll(env.service, where);
    const origin = env.service.sandboxUrl!.replace(/\/api\/v10$/, '');
    await fetch(`${origin}/_sandbox/channels/${where.channel}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ guild_id: where.guild, name: 'polls' }),
    });
    const page = await env.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: /# polls/ }).click();
    const message = page.locator(`#messages .msg[data-m="${poll.message_id}"]`);
    await expect.poll(() => message.count(), { timeout: 10_000 }).toBe(1);
    expect(await message.textContent()).toContain('0 votes');

    await page.fill('#actor', snowflake());
    await page.press('#actor', 'Tab');
    await message.getByRole('button', { name: 'Cafe' }).click();
    await expect.poll(async () => message.textContent(), { timeout: 15_000 }).toMatch(/Cafe\s*▓{10} 1 vote · 100%/);
    expect(errors).toEqual([]);
  });

  it('a reaction on a reaction-role panel shows the granted role on the member in the members panel', async () => {
    const world = { service: env.service, sandbox: sandboxOf(env.service) };
    const guild = await enabledGuild(world);
    const origin = env.service.sandboxUrl!.replace(/\/api\/v10$/, '');
    const put = (path: string, body: unknown) =>
      fetch(`${origin}/_sandbox${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const channel = snowflake();
    await put(`/channels/${channel}`, { guild_id: guild, name: 'roles' });
    const role = snowflake();
    await put(`/guilds/${guild}/roles/${role}`, { name: 'Gamer' });
    const panel = await createPanel(world, guild, {}, channel);
    await addEntry(world, guild, panel.panel_id, { emoji_name: '🎮', role_ids: [role] });
    const member = snowflake();

    const page = await env.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('dialog', (dialog) => dialog.accept('🎮'));
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: /# roles/ }).click();
    const message = page.locator(`#messages .msg[data-m="${panel.message_id}"]`);
    await expect.poll(() => message.count(), { timeout: 10_000 }).toBe(1);
    await page.fill('#actor', member);
    await message.locator('[data-act="react-new"]').click();
    const shown = page.locator(`#people .member[data-u="${member}"] .role`);
    await expect.poll(() => shown.allTextContents(), { timeout: 15_000 }).toEqual(['@Gamer']);
    expect(await world.sandbox.roles(guild, member)).toEqual([role]);
    expect(errors).toEqual([]);
  });
});

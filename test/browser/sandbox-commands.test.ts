/**
 * The page's `/` box (CONTRACT 17): a person acting as a member types `/`,
 * sees the guild's commands and their options (a lock on the ones needing a
 * permission), picks one, types in an autocompleted option and is shown
 * the bot's suggestions (callback 8), runs it and reads the answer. The
 * bot's part is played here through the platform's routes.
 */
import { type APIInteraction, ApplicationCommandOptionType, InteractionType, PermissionFlagsBits } from 'discord-api-types/v10';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_USER, type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';
import { hasBrowser, launchBrowser } from '#test/helpers/browser.js';
import { sandboxCall } from '#test/helpers/sandbox.js';

const GUILD = '300000000000000019';
const CHANNEL = '200000000000000019';
const MEMBER = '400000000000000019';

let sandbox: Sandbox;
let browser: Browser;

describe.skipIf(!hasBrowser)('the / box', () => {
  beforeAll(async () => {
    sandbox = await startSandbox();
    browser = await launchBrowser();
    // The bot: suggests the tags matching what is typed, and answers a run with the tag.
    sandbox.state.listeners.add((event) => {
      if (event.t !== 'INTERACTION_CREATE') return;
      const i = event.d as APIInteraction & { data: { options?: { value: string }[] } };
      const url = `${sandbox.url}/interactions/${i.id}/${i.token}/callback`;
      const typed = String(i.data.options?.[0]?.value ?? '');
      if (i.type === InteractionType.ApplicationCommandAutocomplete) {
        void sandboxCall('POST', url, {
          type: 8,
          data: { choices: ['rules', 'roles'].filter((n) => n.startsWith(typed)).map((n) => ({ name: n, value: n })) },
        });
      } else if (i.type === InteractionType.ApplicationCommand) {
        void sandboxCall('POST', url, { type: 4, data: { content: typed === 'rules' ? 'Be **kind**.' : 'No such tag.' } });
      }
    });
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('lists the commands, suggests while typing, runs one and shows the answer', async () => {
    await sandboxCall('PUT', `${sandbox.origin}/_sandbox/channels/${CHANNEL}`, { guild_id: GUILD, name: 'general' });
    await sandboxCall('POST', `${sandbox.origin}/_sandbox/guilds/${GUILD}/members/${MEMBER}/join`, {});
    await sandboxCall('PUT', `${sandbox.url}/applications/${BOT_USER.id}/commands`, [
      {
        name: 'tag',
        description: 'Send a tag',
        options: [{ type: ApplicationCommandOptionType.String, name: 'name', description: 'The tag', required: true, autocomplete: true }],
      },
      {
        name: 'poll',
        description: 'Start a poll',
        default_member_permissions: String(PermissionFlagsBits.ManageGuild),
        options: [{ type: ApplicationCommandOptionType.String, name: 'question', description: 'What to ask', required: true }],
      },
    ]);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${sandbox.origin}/`);
    await page.getByRole('button', { name: /# general/ }).click();
    await page.fill('#actor', MEMBER);

    await page.click('#cmd');
    await page.keyboard.type('/');
    const list = page.locator('#cmd-list');
    await expect.poll(() => list.textContent()).toContain('/tag');
    expect(await list.textContent()).toMatch(/\/poll question.*🔒/);
    await page.keyboard.type('ta');
    await expect.poll(() => list.locator('[data-cmd]').count()).toBe(1);
    await list.getByRole('button', { name: /\/tag/ }).click();

    const field = page.locator('#cmd-form [data-opt="name"]');
    await expect
      .poll(() => field.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement))
      .toBe(true);
    await page.keyboard.type('ru');
    await expect.poll(() => page.locator('#status').textContent()).toBe('The bot suggests: rules.');
    expect(await page.locator('#opt-name-list option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value))).toEqual(['rules']);

    await field.fill('rules');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toBe('The bot answered: Be kind.');
    expect(await page.locator('#status b').textContent()).toBe('kind');
    expect(errors).toEqual([]);
  });
});

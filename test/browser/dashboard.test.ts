/**
 * The dashboard in a real browser (behaviour §19): a member signs in through
 * the sandbox platform's authorize page, picks a guild, enables polls,
 * changes a setting (seen in GET /settings), sees a rule the document states
 * checked before sending and the service's refusal shown at its field,
 * creates a reaction-role panel (its message seen on the sandbox), and every
 * page passes axe-core without a serious or critical violation.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAndService, hasBrowser } from '../helpers/browser.js';
import { snowflake } from '../helpers/local.js';
import { sandboxOf } from '../helpers/sandbox.js';
import { seedInviteUses } from '../helpers/invite-uses.js';
import { sourcesOf, watch } from '#test/integration/socials/helpers.js';

const env = browserAndService();

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = process.env.TMPDIR ?? '/tmp';

/** axe-core's serious and critical violations on the page as it is now, as `rule: target` lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a script tag: the page's content security policy refuses inline scripts.
  if (!(await page.evaluate<boolean>('typeof axe === "object"'))) await page.evaluate<void>(AXE);
  const violations = await page.evaluate<{ id: string; impact: string; targets: string[] }[]>(
    'axe.run().then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) })))',
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.targets.join(', ')}`);
}

describe.skipIf(!hasBrowser)('the dashboard', () => {
  it('signs in through the platform, enables polls, saves a setting, shows refusals at their field and creates a panel', async () => {
    const guild = snowflake();
    const member = snowflake();
    const channel = snowflake();
    const sandbox = sandboxOf(env.service);
    const control = (method: string, path: string, body: unknown) =>
      fetch(`${sandbox.origin}/_sandbox${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await control('PUT', `/guilds/${guild}`, { name: 'Book club' });
    await control('POST', `/guilds/${guild}/members/${member}/join`, { username: 'ada', global_name: 'Ada' });
    await control('PUT', `/guilds/${guild}/members/${member}/permissions`, { permissions: String(1 << 5) });
    await control('PUT', `/channels/${channel}`, { guild_id: guild, name: 'roles' });

    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const outside: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.hostname !== '127.0.0.1') outside.push(request.url());
    });

    // Sign in: the dashboard sends the browser to the sandbox's authorize page; the person picks who they are.
    await page.goto(`${env.service.url}/dashboard`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/dashboard-1-sign-in.png`, fullPage: true });
    await page.getByRole('link', { name: 'Sign in with the platform' }).click();
    await page.locator(`#member-${member}`).check();
    await Promise.all([page.waitForURL(`${env.service.url}/dashboard`), page.getByRole('button', { name: 'Authorize' }).click()]);
    expect(await page.locator('h1').textContent()).toBe('Your guilds');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/dashboard-2-guilds.png`, fullPage: true });

    // Pick the guild.
    await page.getByRole('link', { name: 'Book club' }).click();
    const polls = page.locator('#module-polls');
    await expect.poll(() => polls.getByRole('button', { name: 'Enable' }).count(), { timeout: 10_000 }).toBe(1);
    await polls.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => polls.locator('.state').textContent()).toBe('Enabled');
    expect((await env.service.call('GET', '/modules/polls/status', { query: { guild_id: guild } })).body.data.status).toBe(true);
    await polls.locator('summary', { hasText: 'Settings, lists and diagnostics' }).click();

    // A setting: the service's refusal of a rule the document does not state is shown at its field; a good value is saved.
    const keep = polls.getByLabel(/save duration timeout/);
    await keep.fill('-5');
    await polls.getByLabel(/delete ended platform polls/).selectOption('false');
    await polls.getByLabel(/delete ended service polls/).selectOption('true');
    await polls.getByRole('button', { name: 'Save settings' }).click();
    const keepError = polls.locator('[data-field="save_duration_timeout"] .error');
    await expect.poll(() => keepError.textContent()).toContain("'save_duration_timeout' must be from 0");
    expect(await keep.getAttribute('aria-invalid')).toBe('true');
    await page.screenshot({ path: `${SHOTS}/dashboard-3-refused-at-field.png`, fullPage: false });
    await keep.fill('3600');
    await polls.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => polls.locator('form .form-status').first().textContent()).toBe('Saved.');
    const settings = await env.service.call('GET', '/modules/polls/settings', { query: { guild_id: guild } });
    expect(settings.body.data.settings).toMatchObject({ save_duration_timeout: 3600, delete_ended_platform_polls: false, delete_ended_service_polls: true });

    // A reaction-role panel: a rule the document states (content is required for a posted panel) is checked before sending.
    const roles = page.locator('#module-reactionroles');
    await roles.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => roles.locator('.state').textContent()).toBe('Enabled');
    await roles.locator('summary', { hasText: 'Settings, lists and diagnostics' }).click();
    await roles.locator('summary', { hasText: 'Create' }).click();
    const form = roles.locator('details form');
    await form.getByLabel(/^panel type/).selectOption('button');
    for (const name of ['limit roles to one', 'supports remove', 'remove roles from users on entry delete', 'is register', 'is embed']) {
      await form.getByLabel(new RegExp(`^${name}`)).selectOption('false');
    }
    await form.getByLabel(/^channel id/).fill(channel);
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => form.locator('[data-field="content"] .error').textContent()).not.toBe('');
    expect((await sandbox.state()).channels.find((c: { id: string }) => c.id === channel)?.messages ?? []).toEqual([]);
    await form.getByLabel(/^content/).fill('Pick your roles');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => form.locator('.form-status').textContent()).toBe('Saved.');
    await expect.poll(() => roles.locator('table tbody tr').count()).toBe(1);
    const posted = (await sandbox.state()).channels.find((c: { id: string }) => c.id === channel)?.messages ?? [];
    expect(posted.map((m: { content: string }) => m.content)).toEqual(['Pick your roles']);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/dashboard-4-guild.png`, fullPage: true });

    // The panel's entries, a list under its row (the API's panel/{id}/entries): added, edited and deleted there, each
    // change seen on the panel's message on the platform.
    const role = await sandbox.roleIn(guild);
    /** The labels of the panel message's buttons, as the platform shows them. */
    const labels = async () => {
      const message = (await sandbox.state()).channels.find((c: { id: string }) => c.id === channel)?.messages[0];
      const rows = (message?.components ?? []) as unknown as { components: { label?: string }[] }[];
      return rows.flatMap((r) => r.components.map((c) => c.label));
    };
    const panelRow = roles.locator('table tbody tr').first();
    await panelRow.getByRole('button', { name: /^entries of / }).click();
    expect(await panelRow.getByRole('button', { name: /^entries of / }).getAttribute('aria-expanded')).toBe('true');
    const entries = roles.locator('[data-list="/modules/reactionroles/panel/{reactionrole_panel_id}/entries"]');
    await expect.poll(() => entries.textContent()).toContain('None yet.');
    await entries.locator('summary', { hasText: 'Add to entries' }).click();
    const add = entries.locator('details form');
    await add.getByLabel(/^role ids/).fill(role);
    await add.getByLabel(/^emoji name/).fill('🎉');
    await add.getByLabel(/^text/).fill('Readers');
    await add.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => add.locator('.form-status').textContent()).toBe('Saved.');
    const entryRow = entries.locator('tbody tr').first();
    await expect.poll(() => entries.locator('tbody tr').count()).toBe(1);
    expect(await entryRow.textContent()).toContain(role);
    await expect.poll(labels).toEqual(['Readers']);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/dashboard-6-panel-entries.png`, fullPage: true });
    await entryRow.getByRole('button', { name: /^Edit / }).click();
    const editEntry = entries.locator('tbody form');
    await editEntry.getByLabel(/^text/).fill('Book readers');
    await editEntry.getByRole('button', { name: 'Save' }).click();
    await expect.poll(labels).toEqual(['Book readers']);
    await expect.poll(() => entries.locator('tbody tr').first().textContent()).toContain('Book readers');
    page.once('dialog', (dialog) => void dialog.accept());
    await entries
      .locator('tbody tr')
      .first()
      .getByRole('button', { name: /^Delete / })
      .click();
    await expect.poll(() => entries.textContent()).toContain('None yet.');
    await expect.poll(labels).toEqual([]);

    // Its row has Edit and Delete, the API's PUT and DELETE of the panel; Delete (confirmed) removes it.
    const row = roles.locator('table tbody tr').first();
    expect(await row.getByRole('button', { name: 'Edit' }).count()).toBe(1);
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: /^Delete / }).click();
    // The panels' own list reads empty (its entries' list, still open under the row, said None yet already).
    await expect.poll(() => roles.locator('[data-list="/modules/reactionroles/panels"] > div').first().textContent()).toBe('None yet.');
    expect((await env.service.call('GET', '/modules/reactionroles/panels', { query: { guild_id: guild } })).body.data.panels).toEqual([]);

    // The diagnostics of a module, and keyboard use: the skip link is the first stop.
    await page
      .locator('#module-polls')
      .getByRole('button', { name: /Check what would stop it/ })
      .click();
    await expect.poll(() => page.locator('#module-polls .diag').count()).toBe(1);
    await page.reload();
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Skip to content');
    // The keyboard alone: from the module links to a module's Enable button, Enter enables it.
    const tags = page.locator('#module-tags');
    await expect.poll(() => tags.getByRole('button', { name: 'Enable' }).count(), { timeout: 10_000 }).toBe(1);
    await tags.getByRole('button', { name: 'Enable' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => tags.locator('.state').textContent()).toBe('Enabled');
    // A tag's row: its Delete is the API's DELETE of entries/{entry_id}, the parameter being the tag's own tag_id.
    const made = await env.service.call('POST', '/modules/tags/entries', {
      body: { guild_id: guild, owner_id: member, content: 'Read the rules', visibility: 1, names: ['rules'] },
    });
    expect(made.body.success).toBe(true);
    await tags.locator('summary', { hasText: 'Settings, lists and diagnostics' }).click();
    await expect.poll(() => tags.locator('table tbody tr').count()).toBe(1);
    const tagRow = tags.locator('table tbody tr').first();
    expect(await tagRow.getByRole('button', { name: 'Edit' }).count()).toBe(1);
    page.once('dialog', (dialog) => void dialog.accept());
    await tagRow.getByRole('button', { name: /^Delete / }).click();
    await expect.poll(() => tags.locator('.list').first().textContent()).toContain('None yet.');
    expect((await env.service.call('GET', '/modules/tags/entries', { query: { guild_id: guild } })).body.data.entries).toEqual([]);
    // Paging: twelve tags are a page of ten and, after Next page, the other two; First page goes back.
    const made12 = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        env.service.call('POST', '/modules/tags/entries', {
          body: { guild_id: guild, owner_id: member, content: `Rule ${i}`, visibility: 1, names: [`rule-${i}`] },
        }),
      ),
    );
    const tagIds = made12.map((answer) => String(answer.body.data.entry.tag_id)).sort();
    await page.reload();
    await expect.poll(() => tags.locator('.state').textContent(), { timeout: 10_000 }).toBe('Enabled');
    await tags.locator('summary', { hasText: 'Settings, lists and diagnostics' }).click();
    const shownTags = () => tags.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-item') ?? ''));
    await expect.poll(async () => (await shownTags()).length).toBe(10);
    const firstPage = await shownTags();
    await tags.getByRole('button', { name: 'Next page of entries' }).click();
    await expect.poll(async () => (await shownTags()).length).toBe(2);
    expect([...firstPage, ...(await shownTags())].sort()).toEqual(tagIds);
    expect(await tags.getByRole('button', { name: 'Next page of entries' }).count()).toBe(0);
    await tags.getByRole('button', { name: 'First page of entries' }).click();
    await expect.poll(shownTags).toEqual(firstPage);

    // A list needing a query filter (the invite tracker's uses name their inviter): asked for, checked, then shown.
    const inviter = snowflake();
    const joined = await seedInviteUses(guild, inviter, 'bookclub', 3, 2_000_000);
    await env.service.call('POST', '/modules/invite-tracker/enable', { body: { guild_id: guild } });
    await page.reload();
    const tracker = page.locator('#module-invite-tracker');
    await expect.poll(() => tracker.locator('.state').textContent(), { timeout: 10_000 }).toBe('Enabled');
    await tracker.locator('summary', { hasText: 'Settings, lists and diagnostics' }).click();
    const uses = tracker.locator('[data-list="/modules/invite-tracker/stats/uses"]');
    await expect.poll(() => uses.textContent()).toContain('Fill in inviter id and choose Show.');
    const inviterInput = uses.getByLabel(/^inviter id/);
    await inviterInput.fill('not-an-id');
    await uses.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => uses.locator('[data-field="inviter_id"] .error').textContent()).not.toBe('');
    expect(await inviterInput.getAttribute('aria-invalid')).toBe('true');
    await inviterInput.fill(inviter);
    await uses.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => uses.locator('tbody tr').count()).toBe(3);
    const usesText = (await uses.locator('tbody').textContent()) ?? '';
    for (const who of joined) expect(usesText).toContain(who);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/dashboard-7-filtered-list.png`, fullPage: true });

    // A watched forum's row: the list has no item path, its DELETE names the entry by the body's community, from the row.
    const community = `com${member.slice(-6)}`;
    await sourcesOf(env.service).forum(community);
    await env.service.call('POST', '/modules/socials/enable', { body: { guild_id: guild } });
    expect((await watch(env.service, guild, 'forum', community, channel)).body.success).toBe(true);
    await page.reload();
    const socials = page.locator('#module-socials');
    await expect.poll(() => socials.locator('.state').textContent(), { timeout: 10_000 }).toBe('Enabled');
    await socials.locator('summary', { hasText: 'Settings, lists and diagnostics' }).click();
    const forumRow = socials.locator('tr', { hasText: community });
    await expect.poll(() => forumRow.count()).toBe(1);
    page.once('dialog', (dialog) => void dialog.accept());
    await forumRow.getByRole('button', { name: `Delete ${community}` }).click();
    await expect.poll(async () => (await env.service.call('GET', '/modules/socials/entries/forum', { query: { guild_id: guild } })).body.data.total).toBe(0);

    // The failure pages too: a guild the member may not configure (403), a sign-in link replayed (400).
    for (const [path, status] of [
      ['/dashboard/guilds/1234567890123456789', 403],
      ['/dashboard/callback?code=x&state=replayed', 400],
    ] as const) {
      const answer = await page.goto(`${env.service.url}${path}`);
      expect(answer?.status()).toBe(status);
      expect(await seriousViolations(page)).toEqual([]);
    }
    await page.screenshot({ path: `${SHOTS}/dashboard-5-refused.png`, fullPage: true });

    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  }, 120_000);
});

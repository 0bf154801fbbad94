import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULES } from '#shared/modules/names.js';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

/** What enable and disable answer for each module (behaviour §5 and §6; parts 2 and 3 list their keys). */
const SNAPSHOT_KEYS: Record<string, string[]> = {
  reactionroles: ['status'],
  polls: ['status', 'settings'],
  socials: ['status', 'settings', 'entries'],
  serverstats: ['settings', 'counters', 'starboard_entries', 'starboard_entries_total'],
  welcoming: ['settings', 'responses', 'responses_total', 'timedroles'],
  'invite-tracker': ['settings', 'invites', 'stats_uses', 'stats_uses_total'],
  giveaways: ['settings', 'giveaways', 'giveaways_total'],
  verifier: ['settings', 'entries', 'entries_total'],
  tags: ['status'],
};

describe.each(MODULES)('module state of %s', (module) => {
  it('is disabled for a guild never seen, enables once, disables once, and keeps its settings', async () => {
    const guild = snowflake();
    const status = await service.call('GET', `/modules/${module}/status`, { query: { guild_id: guild } });
    expect(status.body).toEqual({ success: true, data: { status: false } });

    const neverEnabled = await service.call('POST', `/modules/${module}/disable`, { body: { guild_id: guild } });
    expect(neverEnabled.status).toBe(409);
    expect(errorOf(neverEnabled)).toMatchObject({ code: 409, name: 'ModuleDisabledError' });

    const enabled = await service.call('POST', `/modules/${module}/enable`, { body: { guild_id: guild } });
    expect(enabled.status).toBe(200);
    expect(Object.keys(enabled.body.data).sort()).toEqual([...SNAPSHOT_KEYS[module]!].sort());
    if ('status' in enabled.body.data) expect(enabled.body.data.status).toBe(true);
    const settings = enabled.body.data.settings;
    if (settings) {
      expect(settings.guild_id).toBe(guild);
      expect(Number.isSafeInteger(settings.id) && settings.id > 0).toBe(true);
    }

    const again = await service.call('POST', `/modules/${module}/enable`, { body: { guild_id: guild } });
    expect(again.status).toBe(409);
    expect(errorOf(again)).toEqual({
      code: 409,
      name: 'ModuleEnabledError',
      message: `Module Enabled! The ${module} module is already enabled for guild ${guild}.`,
    });
    expect((await service.call('GET', `/modules/${module}/status`, { query: { guild_id: guild } })).body.data.status).toBe(true);

    const disabled = await service.call('POST', `/modules/${module}/disable`, { body: { guild_id: guild } });
    expect(disabled.status).toBe(200);
    expect(Object.keys(disabled.body.data).sort()).toEqual([...SNAPSHOT_KEYS[module]!].sort());
    if ('status' in disabled.body.data) expect(disabled.body.data.status).toBe(false);
    expect(disabled.body.data.settings).toEqual(settings);

    const disabledAgain = await service.call('POST', `/modules/${module}/disable`, { body: { guild_id: guild } });
    expect(errorOf(disabledAgain).name).toBe('ModuleDisabledError');

    // Re-enabling keeps the settings record it already had.
    const reenabled = await service.call('POST', `/modules/${module}/enable`, { body: { guild_id: guild } });
    expect(reenabled.body.data.settings).toEqual(settings);
  });

  it('lets exactly one of many concurrent enables succeed', async () => {
    const guild = snowflake();
    const results = await Promise.all(Array.from({ length: 8 }, () => service.call('POST', `/modules/${module}/enable`, { body: { guild_id: guild } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.error.name === 'ModuleEnabledError')).toHaveLength(7);
  });
});

describe('module state and guilds', () => {
  it('keeps guilds apart, including IDs that differ only above 2^53', async () => {
    const a = '18446744073709551615';
    const b = '18446744073709551614';
    const enabled = await service.call('POST', '/modules/giveaways/enable', { rawBody: `{"guild_id": ${a}}` });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.settings.guild_id).toBe(a);
    expect((await service.call('GET', '/modules/giveaways/status', { query: { guild_id: b } })).body.data.status).toBe(false);
    expect((await service.call('GET', '/modules/giveaways/status', { query: { guild_id: a } })).body.data.status).toBe(true);
    const refused = await service.call('POST', '/modules/giveaways/enable', { rawBody: '{"guild_id": 18446744073709551616}' });
    expect(refused.status).toBe(400);
  });

  it('shows the default settings of each module with settings', async () => {
    const guild = snowflake();
    const polls = await service.call('POST', '/modules/polls/enable', { body: { guild_id: guild } });
    expect(polls.body.data.settings).toEqual({
      id: polls.body.data.settings.id,
      guild_id: guild,
      save_duration_timeout: 604800,
      delete_ended_platform_polls: false,
      delete_ended_service_polls: false,
    });
    const socials = await service.call('POST', '/modules/socials/enable', { body: { guild_id: guild } });
    expect(socials.body.data.entries).toEqual({ forum: [], stream: [], rss: [], video: [] });
    expect(socials.body.data.settings).toMatchObject({ monitor_forum: false, monitor_rss: false, monitor_stream: false, monitor_video: false });
  });
});

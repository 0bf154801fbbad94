import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';
import { createPoll, getPoll, messageOf, pollGuild } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const settingsBody = (guild: string, extra: Record<string, unknown> = {}) => ({
  guild_id: guild,
  save_duration_timeout: 3600,
  delete_ended_platform_polls: true,
  delete_ended_service_polls: false,
  ...extra,
});

describe('poll settings', () => {
  it('answers the defaults, changes them, and answers exactly the settings fields', async () => {
    const { guild } = await pollGuild(service);
    const got = await service.call('GET', '/modules/polls/settings', { query: { guild_id: guild } });
    expect(got.status).toBe(200);
    const id = got.body.data.settings.id;
    expect(got.body.data).toEqual({
      settings: { id, guild_id: guild, save_duration_timeout: 604800, delete_ended_platform_polls: false, delete_ended_service_polls: false },
    });
    const put = await service.call('PUT', '/modules/polls/settings', { body: settingsBody(guild) });
    expect(put.status).toBe(200);
    expect(put.body.data.settings).toEqual({
      id,
      guild_id: guild,
      save_duration_timeout: 3600,
      delete_ended_platform_polls: true,
      delete_ended_service_polls: false,
    });
    expect((await service.call('GET', '/modules/polls/settings', { query: { guild_id: guild } })).body.data.settings.save_duration_timeout).toBe(3600);
    // Disabling keeps them.
    await service.call('POST', '/modules/polls/disable', { body: { guild_id: guild } });
    const enabled = await service.call('POST', '/modules/polls/enable', { body: { guild_id: guild } });
    expect(enabled.body.data.settings.save_duration_timeout).toBe(3600);
  });

  it('checks shape (400) before rules (422), and rules before module state', async () => {
    const guild = snowflake();
    const missing = await service.call('PUT', '/modules/polls/settings', { looseBody: { guild_id: guild, save_duration_timeout: 10 } });
    expect(missing.status).toBe(400);
    expect(errorOf(missing).message).toMatch(/delete_ended_platform_polls/);
    const wrongType = await service.call('PUT', '/modules/polls/settings', { body: settingsBody(guild, { save_duration_timeout: '10' }) });
    expect(wrongType.status).toBe(400);
    const negative = await service.call('PUT', '/modules/polls/settings', { body: settingsBody(guild, { save_duration_timeout: -1 }) });
    expect(negative.status).toBe(422);
    expect(errorOf(negative)).toMatchObject({
      name: 'Unprocessable Entity',
      message: expect.stringMatching(/^Unprocessable Entity! Field 'save_duration_timeout'/),
    });
    // A guild never enabled: the module is disabled.
    const disabled = await service.call('PUT', '/modules/polls/settings', { body: settingsBody(guild) });
    expect(disabled.status).toBe(409);
    expect(errorOf(disabled).name).toBe('ModuleDisabledError');
    expect((await service.call('GET', '/modules/polls/settings', { query: { guild_id: guild } })).status).toBe(409);
  });

  it('keeps concurrent changes whole: each answer is one complete settings record', async () => {
    const { guild } = await pollGuild(service);
    const results = await Promise.all(
      [10, 20, 30, 40, 50].map((seconds) => service.call('PUT', '/modules/polls/settings', { body: settingsBody(guild, { save_duration_timeout: seconds }) })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const final = (await service.call('GET', '/modules/polls/settings', { query: { guild_id: guild } })).body.data.settings;
    expect([10, 20, 30, 40, 50]).toContain(final.save_duration_timeout);
  });

  it('is refused to another guild key (403) and allowed to the guild own key', async () => {
    const { guild } = await pollGuild(service);
    const other = snowflake();
    const key = (await service.call('POST', '/auth/api-key', { body: { guild_id: other } })).body.data.api_key.secret as string;
    const refused = await service.call('GET', '/modules/polls/settings', { token: key, query: { guild_id: guild } });
    expect(refused.status).toBe(403);
    expect(errorOf(refused).name).toBe('ForbiddenError');
    const own = (await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).body.data.api_key.secret as string;
    expect((await service.call('GET', '/modules/polls/settings', { token: own, query: { guild_id: guild } })).status).toBe(200);
  });
});

describe('settings delete', () => {
  it('removes every poll of the guild, resets the module, and answers what it removed', async () => {
    const where = await pollGuild(service);
    const a = await createPoll(service, where);
    const b = await createPoll(service, where, { question: 'Second?' });
    const otherGuild = await pollGuild(service);
    const kept = await createPoll(service, otherGuild);

    const removed = await service.call('DELETE', '/modules/polls/settings/delete', { body: { guild_id: where.guild } });
    expect(removed.status).toBe(200);
    expect(removed.body.data.settings).toMatchObject({ guild_id: where.guild, save_duration_timeout: 604800 });
    expect(removed.body.data.polls.map((p: { poll_id: string }) => p.poll_id).sort()).toEqual([a.poll_id, b.poll_id].sort());

    expect((await service.call('GET', '/modules/polls/status', { query: { guild_id: where.guild } })).body.data).toEqual({ status: false });
    await service.call('POST', '/modules/polls/enable', { body: { guild_id: where.guild } });
    expect((await getPoll(service, where.guild, a.poll_id)).status).toBe(404);
    expect((await service.call('GET', '/modules/polls/entries', { query: { guild_id: where.guild } })).body.data.total).toBe(0);
    // Another guild keeps its polls; messages on the platform are left alone.
    expect((await getPoll(service, otherGuild.guild, kept.poll_id)).status).toBe(200);
    expect(await messageOf(service, a)).not.toBeNull();
  });

  it('works while the module is disabled and for a guild never seen', async () => {
    const where = await pollGuild(service);
    await createPoll(service, where);
    await service.call('POST', '/modules/polls/disable', { body: { guild_id: where.guild } });
    const removed = await service.call('DELETE', '/modules/polls/settings/delete', { body: { guild_id: where.guild } });
    expect(removed.status).toBe(200);
    expect(removed.body.data.polls).toHaveLength(1);
    const never = await service.call('DELETE', '/modules/polls/settings/delete', { body: { guild_id: snowflake() } });
    expect(never.body.data).toEqual({ settings: null, polls: [], polls_total: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { snowflake } from '#test/helpers/local.js';
import { addResponse, addTimedRole, failed, guildApiKey, ok, startWorld, welcomingGuild } from './helpers.js';

const world = startWorld();

const DEFAULTS = {
  welcome_messages_dm_enabled: false,
  welcome_messages_enabled: false,
  welcome_messages_randomized: false,
  welcome_messages_channel: null,
  leave_messages_enabled: false,
  leave_messages_randomized: false,
  leave_messages_channel: null,
  autorole_enabled: false,
  autorole_role_ids: '',
  timedroles_enabled: false,
  welcome_messages_dm_randomized: false,
  welcome_message_dm_response_id: null,
  welcome_message_response_id: null,
  leave_message_response_id: null,
};

describe('enable and the settings record', () => {
  it('enable answers default settings with empty responses and timed roles; get answers the same record', async () => {
    const guild = snowflake();
    const enabled = ok(await world.call('POST', '/enable', { body: { guild_id: guild } }));
    expect(enabled).toEqual({ settings: { id: expect.any(Number), guild_id: guild, ...DEFAULTS }, responses: [], responses_total: 0, timedroles: [] });
    expect(ok(await world.call('GET', '/settings', { query: { guild_id: guild } }))).toEqual({ settings: enabled.settings });
  });

  it('every operation but the settings delete answers 409 while the module is disabled', async () => {
    const guild = snowflake();
    failed(await world.call('GET', '/settings', { query: { guild_id: guild } }), 409, 'ModuleDisabledError');
    failed(await world.call('PUT', '/settings', { body: { guild_id: guild, autorole_enabled: true } }), 409, 'ModuleDisabledError');
    failed(await world.call('GET', '/responses', { query: { guild_id: guild } }), 409, 'ModuleDisabledError');
    failed(await world.call('GET', '/timedroles', { query: { guild_id: guild } }), 409, 'ModuleDisabledError');
    failed(
      await world.call('POST', '/timedroles', { body: { guild_id: guild, role_id: await world.sandbox.roleIn(guild), add_after: 60 } }),
      409,
      'ModuleDisabledError',
    );
    expect(ok(await world.call('DELETE', '/settings', { body: { guild_id: guild } }))).toEqual({
      settings: null,
      responses: [],
      responses_total: 0,
      timedroles: [],
    });
  });
});

describe('PUT /settings', () => {
  it('changes only the fields given non-null; "" clears a channel or response ID', async () => {
    const guild = await welcomingGuild(world);
    const channel = await world.sandbox.channelIn(guild, '1234567890123456789');
    for (const role of ['11', '22']) await world.sandbox.roleIn(guild, role);
    const dm = await addResponse(world, guild, 1, 'Hello <user_mention>');
    const set = ok(
      await world.call('PUT', '/settings', {
        rawBody: `{"guild_id": "${guild}", "welcome_messages_enabled": true, "welcome_messages_channel": ${channel}, "autorole_role_ids": [11, "22", 11], "welcome_message_dm_response_id": "${dm.response_id}"}`,
      }),
    ).settings;
    expect(set).toMatchObject({
      welcome_messages_enabled: true,
      welcome_messages_channel: channel,
      autorole_role_ids: '11,22',
      welcome_message_dm_response_id: dm.response_id,
    });

    const kept = ok(await world.call('PUT', '/settings', { body: { guild_id: guild, welcome_messages_enabled: null, leave_messages_enabled: true } })).settings;
    expect(kept).toMatchObject({ welcome_messages_enabled: true, welcome_messages_channel: channel, leave_messages_enabled: true, autorole_role_ids: '11,22' });

    const cleared = ok(
      await world.call('PUT', '/settings', {
        body: { guild_id: guild, welcome_messages_channel: '', welcome_message_dm_response_id: '', autorole_role_ids: '' },
      }),
    ).settings;
    expect(cleared).toMatchObject({
      welcome_messages_channel: null,
      welcome_message_dm_response_id: null,
      autorole_role_ids: '',
      welcome_messages_enabled: true,
    });
    expect(ok(await world.call('GET', '/settings', { query: { guild_id: guild } })).settings).toEqual(cleared);
  });

  it('refuses a wrong type or an invalid ID (400) and a response of another type or guild (422), changing nothing', async () => {
    const guild = await welcomingGuild(world);
    const other = await welcomingGuild(world);
    const channelWelcome = await addResponse(world, guild, 2, 'Welcome!');
    const elsewhere = await addResponse(world, other, 1, 'Hi');
    const before = ok(await world.call('GET', '/settings', { query: { guild_id: guild } })).settings;

    expect(failed(await world.call('PUT', '/settings', { body: { guild_id: guild, autorole_enabled: 'yes' } }), 400, 'BadRequestError')).toContain(
      'autorole_enabled',
    );
    expect(failed(await world.call('PUT', '/settings', { body: { guild_id: guild, leave_messages_channel: 'general' } }), 400, 'BadRequestError')).toContain(
      'leave_messages_channel',
    );
    expect(failed(await world.call('PUT', '/settings', { body: { guild_id: guild, autorole_role_ids: ['x'] } }), 400, 'BadRequestError')).toContain(
      'autorole_role_ids',
    );
    failed(await world.call('PUT', '/settings', { body: { autorole_enabled: true } }), 400, 'BadRequestError');

    const wrongType = { guild_id: guild, welcome_messages_enabled: true, welcome_message_dm_response_id: channelWelcome.response_id };
    expect(failed(await world.call('PUT', '/settings', { body: wrongType }), 422, 'Unprocessable Entity')).toContain('welcome_message_dm_response_id');
    const long = { guild_id: guild, leave_message_response_id: 'z'.repeat(5000) };
    expect(failed(await world.call('PUT', '/settings', { body: long }), 422, 'Unprocessable Entity')).toContain('leave_message_response_id');
    const foreign = { guild_id: guild, welcome_message_dm_response_id: elsewhere.response_id };
    expect(failed(await world.call('PUT', '/settings', { body: foreign }), 422, 'Unprocessable Entity')).toContain(elsewhere.response_id);
    expect(ok(await world.call('GET', '/settings', { query: { guild_id: guild } })).settings).toEqual(before);
  });

  it('a guild key works for its own guild only', async () => {
    const guild = await welcomingGuild(world);
    const key = await guildApiKey(world, guild);
    ok(await world.call('PUT', '/settings', { body: { guild_id: guild, autorole_enabled: true }, token: key }));
    const other = await welcomingGuild(world);
    failed(await world.call('GET', '/settings', { query: { guild_id: other }, token: key }), 403, 'ForbiddenError');
    failed(await world.call('DELETE', '/settings', { body: { guild_id: other }, token: key }), 403, 'ForbiddenError');
  });
});

describe('DELETE /settings', () => {
  it('removes everything, answers it, and leaves the module disabled with defaults on the next enable', async () => {
    const guild = await welcomingGuild(world, { timedroles_enabled: true });
    await addResponse(world, guild, 3, 'Bye <user_name>');
    await addResponse(world, guild, 1, 'Hello <user_name>');
    await addTimedRole(world, guild, snowflake(), 3600);
    await addTimedRole(world, guild, snowflake(), 7200);
    const { responses } = ok(await world.call('GET', '/responses', { query: { guild_id: guild } }));
    const { timedroles } = ok(await world.call('GET', '/timedroles', { query: { guild_id: guild } }));
    expect(responses).toHaveLength(2);
    expect(timedroles).toHaveLength(2);
    const member = snowflake();
    await world.members.join(guild, member);
    ok(await world.call('POST', '/check/role/on-join', { body: { guild_id: guild }, headers: { 'X-Acting-User-Id': member } }));

    const removed = ok(await world.call('DELETE', '/settings', { body: { guild_id: guild } }));
    expect(removed).toMatchObject({ settings: { guild_id: guild, timedroles_enabled: true }, responses, responses_total: 2, timedroles });
    expect(ok(await world.call('GET', '/status', { query: { guild_id: guild } }))).toEqual({ status: false });
    const privacy = ok(await world.call('GET', '/privacy/get-user-entries', { query: { guild_id: guild, privacy_member_id: member } }));
    expect(privacy.id).toBe(0);
    const again = ok(await world.call('POST', '/enable', { body: { guild_id: guild } }));
    expect(again).toMatchObject({ settings: DEFAULTS, responses: [], responses_total: 0, timedroles: [] });
  });
});

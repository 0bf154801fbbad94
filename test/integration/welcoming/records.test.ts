/** Responses and timed roles: create, list, get, delete, their rules and limits. */
import { describe, expect, it } from 'vitest';
import { snowflake } from '#test/helpers/local.js';
import { addResponse, addTimedRole, failed, guildApiKey, ok, startWorld, welcomingGuild } from './helpers.js';

const world = startWorld();

const createResponse = (guild: string, body: Record<string, unknown>) => world.call('POST', '/responses', { body: { guild_id: guild, ...body } });

describe('responses', () => {
  it('creates, lists newest first (optionally by type), gets and deletes', async () => {
    const guild = await welcomingGuild(world);
    const first = await addResponse(world, guild, 1, 'Welcome <user_mention> to <server_name>!');
    const embed = await addResponse(world, guild, 2, JSON.stringify({ title: 'Hi <user_name>', description: 'Member #<member_count>' }), true);
    const leave = await addResponse(world, guild, 3, 'Bye <user_name>');
    expect(first).toEqual({
      id: expect.any(Number),
      guild_id: guild,
      response_id: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
      response_type: 1,
      is_embed: false,
      content: 'Welcome <user_mention> to <server_name>!',
      created_at: expect.any(String),
    });
    // A small guild's responses fit in one answer: all of them, and nothing to continue with.
    expect(ok(await world.call('GET', '/responses', { query: { guild_id: guild } }))).toEqual({ responses: [leave, embed, first], next_cursor: null });
    expect(ok(await world.call('GET', '/responses', { query: { guild_id: guild, response_type: 2 } }))).toEqual({ responses: [embed], next_cursor: null });
    expect(ok(await world.call('GET', `/responses/${embed.response_id}`, { query: { guild_id: guild } }))).toEqual({ response: embed });
    expect(ok(await world.call('DELETE', `/responses/${embed.response_id}`, { body: { guild_id: guild } }))).toEqual({ response: embed });
    failed(await world.call('GET', `/responses/${embed.response_id}`, { query: { guild_id: guild } }), 404, 'NotFoundError');
    failed(await world.call('DELETE', `/responses/${embed.response_id}`, { body: { guild_id: guild } }), 404, 'NotFoundError');
    failed(await world.call('GET', `/responses/${'x'.repeat(2000)}`, { query: { guild_id: guild } }), 404, 'NotFoundError');
    failed(await world.call('GET', '/responses/a%23b', { query: { guild_id: guild } }), 404, 'NotFoundError');
  });

  it("is 404 for another guild's response, and 403 with another guild's key", async () => {
    const guild = await welcomingGuild(world);
    const other = await welcomingGuild(world);
    const response = await addResponse(world, other, 1, 'Hi');
    failed(await world.call('GET', `/responses/${response.response_id}`, { query: { guild_id: guild } }), 404, 'NotFoundError');
    failed(await world.call('DELETE', `/responses/${response.response_id}`, { body: { guild_id: guild } }), 404, 'NotFoundError');
    const key = await guildApiKey(world, guild);
    failed(await world.call('GET', `/responses/${response.response_id}`, { query: { guild_id: other }, token: key }), 403, 'ForbiddenError');
    failed(
      await world.call('POST', '/responses', { body: { guild_id: other, response_type: 1, is_embed: false, content: 'x' }, token: key }),
      403,
      'ForbiddenError',
    );
    expect(ok(await world.call('GET', '/responses', { query: { guild_id: other } })).responses).toEqual([response]);
  });

  it('refuses bad input: 400 for shape, 422 for an unknown type, empty or long content, and embed JSON that is not an embed', async () => {
    const guild = await welcomingGuild(world);
    failed(await createResponse(guild, { response_type: 1, is_embed: false }), 400, 'BadRequestError');
    failed(await createResponse(guild, { response_type: '1', is_embed: false, content: 'x' }), 400, 'BadRequestError');
    failed(await world.call('GET', '/responses', { query: { guild_id: guild, response_type: 'dm' } }), 400, 'BadRequestError');
    expect(failed(await createResponse(guild, { response_type: 4, is_embed: false, content: 'x' }), 422, 'Unprocessable Entity')).toContain('response_type');
    failed(await world.call('GET', '/responses', { query: { guild_id: guild, response_type: 0 } }), 422, 'Unprocessable Entity');
    failed(await createResponse(guild, { response_type: 1, is_embed: false, content: '' }), 422, 'Unprocessable Entity');
    expect(failed(await createResponse(guild, { response_type: 1, is_embed: false, content: 'x'.repeat(2001) }), 422, 'Unprocessable Entity')).toContain(
      '2000',
    );
    expect(failed(await createResponse(guild, { response_type: 2, is_embed: true, content: 'Welcome!' }), 422, 'Unprocessable Entity')).toContain('embed JSON');
    failed(await createResponse(guild, { response_type: 2, is_embed: true, content: '[1, 2]' }), 422, 'Unprocessable Entity');
    const tooLong = JSON.stringify({ title: 't'.repeat(257) });
    expect(failed(await createResponse(guild, { response_type: 2, is_embed: true, content: tooLong }), 422, 'Unprocessable Entity')).toContain('title');
    expect(ok(await world.call('GET', '/responses', { query: { guild_id: guild } })).responses).toEqual([]);
  });

  it('keeps at most 20 of each type, even when 25 are created at once', async () => {
    const guild = await welcomingGuild(world);
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => createResponse(guild, { response_type: 2, is_embed: false, content: `Welcome ${i}` })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    for (const refused of results.filter((r) => r.status !== 200)) expect(failed(refused, 422, 'Unprocessable Entity')).toContain('20');
    expect(ok(await world.call('GET', '/responses', { query: { guild_id: guild, response_type: 2 } })).responses).toHaveLength(20);
    // Other types have their own 20; a deleted one frees its place.
    await addResponse(world, guild, 3, 'Bye');
    const one = ok(results.find((r) => r.status === 200)!).response;
    ok(await world.call('DELETE', `/responses/${one.response_id}`, { body: { guild_id: guild } }));
    await addResponse(world, guild, 2, 'Welcome again');
    failed(await createResponse(guild, { response_type: 2, is_embed: false, content: 'one too many' }), 422, 'Unprocessable Entity');
  });

  it('deleting a response the settings name sets that setting to null', async () => {
    const guild = await welcomingGuild(world);
    const dm = await addResponse(world, guild, 1, 'Hi');
    const leave = await addResponse(world, guild, 3, 'Bye');
    ok(
      await world.call('PUT', '/settings', {
        body: { guild_id: guild, welcome_message_dm_response_id: dm.response_id, leave_message_response_id: leave.response_id },
      }),
    );
    ok(await world.call('DELETE', `/responses/${dm.response_id}`, { body: { guild_id: guild } }));
    const settings = ok(await world.call('GET', '/settings', { query: { guild_id: guild } })).settings;
    expect(settings).toMatchObject({ welcome_message_dm_response_id: null, leave_message_response_id: leave.response_id });
  });
});

describe('timed roles', () => {
  it('creates, lists newest first, gets and deletes', async () => {
    const guild = await welcomingGuild(world);
    const role = await world.sandbox.roleIn(guild, '1234567890123456789');
    const created = ok(await world.call('POST', '/timedroles', { rawBody: `{"guild_id": ${guild}, "role_id": ${role}, "add_after": 86400}` })).timedrole;
    expect(created).toEqual({
      id: expect.any(Number),
      guild_id: guild,
      timedrole_id: expect.any(String),
      role_id: role,
      add_after: 86400,
      created_at: expect.any(String),
    });
    const second = await addTimedRole(world, guild, snowflake(), 1);
    expect(ok(await world.call('GET', '/timedroles', { query: { guild_id: guild } })).timedroles).toEqual([second, created]);
    expect(ok(await world.call('GET', `/timedroles/${created.timedrole_id}`, { query: { guild_id: guild } }))).toEqual({ timedrole: created });
    expect(ok(await world.call('DELETE', `/timedroles/${created.timedrole_id}`, { body: { guild_id: guild } }))).toEqual({ timedrole: created });
    failed(await world.call('GET', `/timedroles/${created.timedrole_id}`, { query: { guild_id: guild } }), 404, 'NotFoundError');
    failed(await world.call('DELETE', `/timedroles/${created.timedrole_id}`, { body: { guild_id: guild } }), 404, 'NotFoundError');
    failed(await world.call('GET', `/timedroles/${'y'.repeat(2000)}`, { query: { guild_id: guild } }), 404, 'NotFoundError');
    // The role is free again.
    await addTimedRole(world, guild, role, 60);
  });

  it('refuses add_after out of range, a role that already has one, and a bad ID, changing nothing', async () => {
    const guild = await welcomingGuild(world);
    const role = await world.sandbox.roleIn(guild);
    const create = (body: Record<string, unknown>) => world.call('POST', '/timedroles', { body: { guild_id: guild, ...body } });
    expect(failed(await create({ role_id: role, add_after: 0 }), 422, 'Unprocessable Entity')).toContain('add_after');
    failed(await create({ role_id: role, add_after: 31_536_001 }), 422, 'Unprocessable Entity');
    failed(await create({ role_id: role, add_after: 1.5 }), 400, 'BadRequestError');
    failed(await create({ role_id: role, add_after: '60' }), 400, 'BadRequestError');
    failed(await create({ role_id: 'admin', add_after: 60 }), 400, 'BadRequestError');
    failed(await create({ add_after: 60 }), 400, 'BadRequestError');
    await addTimedRole(world, guild, role, 60);
    expect(failed(await create({ role_id: role, add_after: 120 }), 422, 'Unprocessable Entity')).toContain('role_id');
    expect(ok(await world.call('GET', '/timedroles', { query: { guild_id: guild } })).timedroles).toHaveLength(1);
  });

  it('keeps at most 20 a guild, even when created at once', async () => {
    const guild = await welcomingGuild(world);
    const roles = await Promise.all(Array.from({ length: 24 }, () => world.sandbox.roleIn(guild)));
    const results = await Promise.all(roles.map((role) => world.call('POST', '/timedroles', { body: { guild_id: guild, role_id: role, add_after: 60 } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    for (const refused of results.filter((r) => r.status !== 200)) failed(refused, 422, 'Unprocessable Entity');
    expect(ok(await world.call('GET', '/timedroles', { query: { guild_id: guild } })).timedroles).toHaveLength(20);
  });

  it("is 404 for another guild's timed role", async () => {
    const guild = await welcomingGuild(world);
    const other = await welcomingGuild(world);
    const timedRole = await addTimedRole(world, other, snowflake(), 60);
    failed(await world.call('GET', `/timedroles/${timedRole.timedrole_id}`, { query: { guild_id: guild } }), 404, 'NotFoundError');
    failed(await world.call('DELETE', `/timedroles/${timedRole.timedrole_id}`, { body: { guild_id: guild } }), 404, 'NotFoundError');
    ok(await world.call('GET', `/timedroles/${timedRole.timedrole_id}`, { query: { guild_id: other } }));
  });
});

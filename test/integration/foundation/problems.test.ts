import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';

let service: TestService;
let guild: string;
beforeAll(async () => {
  service = await startTestService();
  guild = snowflake();
  expect((await service.call('POST', '/modules/reactionroles/enable', { body: { guild_id: guild } })).status).toBe(200);
});
afterAll(() => service.stop());

describe('what a refused request is told', () => {
  it('a 422 names every problem, each with its field, what was wrong and what is allowed', async () => {
    const res = await service.call('PUT', '/modules/reactionroles/panel/p/entries/e', {
      body: { guild_id: guild, role_ids: [], text: 'x'.repeat(101), description: 'y'.repeat(101) },
    });
    expect(res.status).toBe(422);
    expect(errorOf(res).message).toBe(
      "Unprocessable Entity! Field 'role_ids' must not be empty (2 more problems in the body). Field 'text' must be at most 100 characters. Field 'description' must be at most 100 characters.",
    );
  });

  it('a value outside the allowed ones is a 422 naming them', async () => {
    const res = await service.call('POST', '/modules/reactionroles/panels', {
      looseBody: {
        guild_id: guild,
        panel_type: 'round',
        limit_roles_to_one: false,
        supports_remove: true,
        remove_roles_from_users_on_entry_delete: false,
        is_register: false,
        channel_id: snowflake(),
      },
    });
    expect(res.status).toBe(422);
    expect(errorOf(res).message).toBe(`Unprocessable Entity! Field 'panel_type' must be one of: "emoji", "button", "dropdown".`);
  });

  it('a 400 names every shape problem, the wrong JSON type of an enum field among them', async () => {
    const res = await service.call('POST', '/modules/reactionroles/panels', {
      looseBody: { guild_id: guild, panel_type: null, limit_roles_to_one: 'yes', is_register: false, channel_id: snowflake() },
    });
    expect(res.status).toBe(400);
    const { message } = errorOf(res);
    expect(message).toContain(`Field 'panel_type' must be one of: "emoji", "button", "dropdown", not null`);
    expect(message).toContain("Field 'limit_roles_to_one' must be a boolean (true or false), not a string.");
    expect(message).toContain("Field 'supports_remove' is required");
  });

  it('answers 404, not 500, for a path ID no panel can have, and stores nothing', async () => {
    const res = await service.call('GET', `/modules/reactionroles/panel/${'x'.repeat(1020)}`, { query: { guild_id: guild } });
    expect(res.status).toBe(404);
    expect(errorOf(res).name).toBe('NotFoundError');
    const put = await service.call('PUT', `/modules/reactionroles/panel/${'x'.repeat(1020)}/entries/${'y'.repeat(1020)}`, {
      body: { guild_id: guild, role_ids: [snowflake()] },
    });
    expect(put.status).toBe(404);
    const list = await service.call('GET', '/modules/reactionroles/panels', { query: { guild_id: guild } });
    expect(list.body.data.total).toBe(0);
  });

  it('answers 422 for a query value no key can hold', async () => {
    const res = await service.call('GET', '/modules/reactionroles/panels', { query: { guild_id: guild, name: 'n'.repeat(600) } });
    expect(res.status).toBe(422);
    expect(errorOf(res).message).toContain("Field 'name' is 600 bytes long; a query value is at most 512 bytes.");
  });
});

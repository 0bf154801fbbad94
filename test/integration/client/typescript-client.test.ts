import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GuildModulesClient, createGuildModulesClient } from '../../../clients/typescript/index.js';
import { checkAnswer } from '#test/helpers/answers.js';
import { SERVICE_TOKEN, type TestService, snowflake, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';

/** The generated TypeScript client (clients/typescript) driving local mode, as a bot author would. */
let service: TestService;
let client: GuildModulesClient;
beforeAll(async () => {
  service = await startTestService();
  // Every success answer the client receives is also checked against its route's declared schema.
  const checked: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    await checkAnswer(
      request.method,
      new URL(request.url).pathname,
      response.status,
      await response
        .clone()
        .json()
        .catch(() => null),
    );
    return response;
  };
  client = createGuildModulesClient({ baseUrl: service.url, token: SERVICE_TOKEN, fetch: checked });
});
afterAll(() => service.stop());

/** A panel in a new channel of the guild. */
const panelBody = async (guild: string) => ({
  guild_id: guild,
  is_register: false,
  channel_id: await sandboxOf(service).channelIn(guild),
  panel_type: 'emoji' as const,
  limit_roles_to_one: false,
  supports_remove: true,
  remove_roles_from_users_on_entry_delete: false,
  keep_counter_at_one: false,
  delete_unrelated_emoji_reactions: false,
  is_embed: false,
  content: 'Pick your roles',
});

describe('the TypeScript client', () => {
  it('reads a 409 for a disabled module as a typed error', async () => {
    const guild = snowflake();
    const { data, error, response } = await client.POST('/modules/reactionroles/panels', { body: await panelBody(guild) });
    expect(data).toBeUndefined();
    expect(response.status).toBe(409);
    expect(error?.error.name).toBe('ModuleDisabledError');
    expect(error?.error.code).toBe(409);
  });

  it('creates, reads and lists, with IDs as strings', async () => {
    const guild = snowflake();
    const enabled = await client.POST('/modules/reactionroles/enable', { body: { guild_id: guild } });
    expect(enabled.data?.data.status).toBe(true);

    const created = await client.POST('/modules/reactionroles/panels', { body: await panelBody(guild) });
    const panel = created.data!.data.panel;
    expect(panel.guild_id).toBe(guild);
    expect(typeof panel.message_id).toBe('string');

    const read = await client.GET('/modules/reactionroles/panel/{reactionrole_panel_id}', {
      params: { path: { reactionrole_panel_id: panel.panel_id }, query: { guild_id: guild } },
    });
    expect(read.data?.data.panel).toEqual(panel);

    const listed = await client.GET('/modules/reactionroles/panels', { params: { query: { guild_id: guild, page_size: 5 } } });
    expect(listed.data?.data).toMatchObject({ panels: [panel], page: 1, page_size: 5, total: 1 });
  });

  it('reads a 422 as a typed error naming each problem', async () => {
    const guild = snowflake();
    await client.POST('/modules/reactionroles/enable', { body: { guild_id: guild } });
    const { error, response } = await client.POST('/modules/reactionroles/panels', { body: { ...(await panelBody(guild)), content: 'x'.repeat(2001) } });
    expect(response.status).toBe(422);
    expect(error?.error.name).toBe('Unprocessable Entity');
    expect(error?.error.message).toMatch(/^Unprocessable Entity! Field 'content' /);
  });
});

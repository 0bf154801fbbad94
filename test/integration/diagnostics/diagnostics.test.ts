/**
 * Behaviour §17 "Diagnostics": `GET /modules/<module>/diagnostics` reads the
 * platform and names what would stop the module, one problem code per cause;
 * an empty list when all is well. Through local mode and the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_ROLE_ID } from '#infra/local/sandbox/state.js';
import { failed, ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { panelBody } from '../reactionroles/fixture.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const sandbox = () => sandboxOf(service);

/** Calls the sandbox as the bot (platform API) or a test (control routes, `/_sandbox`). */
async function sandboxCall(method: string, path: string, body?: unknown, control = false): Promise<{ status: number; body: any }> {
  const base = control ? `${sandbox().origin}/_sandbox` : service.sandboxUrl!;
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: 'Bot test', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A guild with welcoming enabled, its two message channels and an autorole set, all as the bot needs them. */
async function welcomingGuild() {
  const guild = snowflake();
  ok(await service.call('POST', '/modules/welcoming/enable', { body: { guild_id: guild } }));
  const channel = await sandbox().channelIn(guild);
  const role = await sandbox().roleIn(guild);
  ok(
    await service.call('PUT', '/modules/welcoming/settings', {
      body: { guild_id: guild, welcome_messages_channel: channel, leave_messages_channel: channel, autorole_role_ids: [role] },
    }),
  );
  return { guild, channel, role };
}

const problems = async (module: string, guild: string) =>
  ok(await service.call('GET', `/modules/${module}/diagnostics`, { query: { guild_id: guild } })).problems;

describe('module diagnostics', () => {
  it('answers an empty list when the bot can do all the module needs', async () => {
    const { guild } = await welcomingGuild();
    expect(await problems('welcoming', guild)).toEqual([]);
  });

  it("is the guild API key's own guild's only, as a settings read", async () => {
    const { guild } = await welcomingGuild();
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret as string;
    expect(ok(await service.call('GET', '/modules/welcoming/diagnostics', { query: { guild_id: guild }, token: key })).problems).toEqual([]);
    failed(await service.call('GET', '/modules/welcoming/diagnostics', { query: { guild_id: snowflake() }, token: key }), 403, 'ForbiddenError');
    failed(await service.call('GET', '/modules/welcoming/diagnostics', { query: { guild_id: guild }, token: null }), 401, 'UnauthorizedError');
  });

  it('names a channel the bot cannot see (channel_permission), and the bot cannot post there', async () => {
    const { guild, channel } = await welcomingGuild();
    const viewChannel = String(1n << 10n);
    expect((await sandboxCall('PUT', `/channels/${channel}/permissions/${guild}`, { type: 0, allow: '0', deny: viewChannel })).status).toBe(204);
    expect(await problems('welcoming', guild)).toEqual(
      ['welcome_messages_channel', 'leave_messages_channel'].map((field) => ({
        code: 'channel_permission',
        field,
        object_id: channel,
        message: `The bot lacks View Channel in channel ${channel} (${field}); grant them to its role there.`,
      })),
    );
    const post = await sandboxCall('POST', `/channels/${channel}/messages`, { content: 'hello' });
    expect([post.status, post.body.code]).toEqual([403, 50013]);
    // The channel shows its overwrites as the platform does; a malformed one is refused naming the field.
    expect((await sandboxCall('GET', `/channels/${channel}`)).body.permission_overwrites).toEqual([{ id: guild, type: 0, allow: '0', deny: viewChannel }]);
    const bad = await sandboxCall('PUT', `/channels/${channel}/permissions/${guild}`, { type: 2, deny: 'x' });
    expect([bad.status, Object.keys(bad.body.errors)]).toEqual([400, ['type', 'deny']]);
    // An overwrite for the bot's own role brings it back.
    await sandboxCall('PUT', `/channels/${channel}/permissions/${BOT_ROLE_ID}`, { type: 0, allow: viewChannel, deny: '0' });
    expect(await problems('welcoming', guild)).toEqual([]);
    // So does removing the @everyone overwrite.
    await sandboxCall('DELETE', `/channels/${channel}/permissions/${BOT_ROLE_ID}`);
    expect((await problems('welcoming', guild)).length).toBe(2);
    expect((await sandboxCall('DELETE', `/channels/${channel}/permissions/${guild}`)).status).toBe(204);
    expect(await problems('welcoming', guild)).toEqual([]);
  });

  it('names a channel that is gone (channel_missing)', async () => {
    const { guild, channel } = await welcomingGuild();
    await sandbox().deleteChannel(channel);
    expect((await problems('welcoming', guild)).map((p: any) => [p.code, p.field, p.object_id])).toEqual([
      ['channel_missing', 'welcome_messages_channel', channel],
      ['channel_missing', 'leave_messages_channel', channel],
    ]);
  });

  it('names a role above the bot (role_above_bot) and a managed role (role_managed)', async () => {
    const { guild, role } = await welcomingGuild();
    await sandbox().forbidRole(guild, role);
    expect(await problems('welcoming', guild)).toEqual([
      {
        code: 'role_above_bot',
        field: 'autorole_role_ids',
        object_id: role,
        message: `Role ${role} (autorole_role_ids) is not below the bot's highest role; move the bot's role above it.`,
      },
    ]);
    await sandbox().allowRole(guild, role);
    await sandboxCall('PUT', `/guilds/${guild}/roles/${role}`, { name: 'Booster', managed: true }, true);
    expect((await problems('welcoming', guild)).map((p: any) => [p.code, p.object_id])).toEqual([['role_managed', role]]);
  });

  it('names a missing Manage Roles (missing_manage_roles)', async () => {
    const { guild } = await welcomingGuild();
    const withoutManageRoles = String((1n << 10n) | (1n << 11n) | (1n << 14n));
    await sandboxCall('PUT', `/guilds/${guild}/roles/${BOT_ROLE_ID}`, { name: 'sandbox-bot', permissions: withoutManageRoles }, true);
    expect((await problems('welcoming', guild)).map((p: any) => [p.code, p.field, p.object_id])).toEqual([['missing_manage_roles', null, null]]);
  });

  it('names a privileged intent the application lacks (intent_missing), per module', async () => {
    const { guild } = await welcomingGuild();
    const before = (await sandboxCall('GET', '/application/intents', undefined, true)).body.intents;
    try {
      await sandboxCall('PUT', '/application/intents', { intents: 1 << 15 }, true);
      // Message content only: GATEWAY_MESSAGE_CONTENT is the application's one privileged flag.
      expect((await sandboxCall('GET', '/applications/@me')).body.flags).toBe(1 << 18);
      expect(await problems('welcoming', guild)).toEqual([
        {
          code: 'intent_missing',
          field: null,
          object_id: null,
          message: "The welcoming module needs the GUILD_MEMBERS privileged intent (GATEWAY_GUILD_MEMBERS); turn it on in the application's Bot settings.",
        },
      ]);
      // Verifier needs no privileged intent.
      const other = snowflake();
      ok(await service.call('POST', '/modules/verifier/enable', { body: { guild_id: other } }));
      expect(await problems('verifier', other)).toEqual([]);
    } finally {
      await sandboxCall('PUT', '/application/intents', { intents: before }, true);
    }
  });

  it("reads the records' channels and roles: a reaction-role panel's channel and its entries' roles", async () => {
    const guild = snowflake();
    ok(await service.call('POST', '/modules/reactionroles/enable', { body: { guild_id: guild } }));
    const channel = await sandbox().channelIn(guild);
    const role = await sandbox().roleIn(guild);
    const panel = ok(await service.call('POST', '/modules/reactionroles/panels', { looseBody: panelBody(guild, channel) })).panel;
    const entry = { guild_id: guild, emoji_name: '😀', emoji_id: null, text: null, description: null, role_ids: [role] };
    ok(await service.call('POST', `/modules/reactionroles/panel/${panel.panel_id}/entries`, { body: entry }));
    expect(await problems('reactionroles', guild)).toEqual([]);
    await sandbox().forbidRole(guild, role);
    // The bot may view and send but not react there.
    await sandboxCall('PUT', `/channels/${channel}/permissions/${BOT_ROLE_ID}`, { type: 0, allow: '0', deny: String(1n << 6n) });
    expect((await problems('reactionroles', guild)).map((p: any) => [p.code, p.field, p.object_id, p.message])).toEqual([
      ['role_above_bot', 'panels.entries[].role_ids', role, expect.stringContaining("is not below the bot's highest role")],
      [
        'channel_permission',
        'panels.channel_id',
        channel,
        `The bot lacks Add Reactions in channel ${channel} (panels.channel_id); grant them to its role there.`,
      ],
    ]);
  });

  it('diagnoses a disabled module that was set up; a module never set up answers 409, as a settings read', async () => {
    const { guild, role } = await welcomingGuild();
    await sandbox().forbidRole(guild, role);
    ok(await service.call('POST', '/modules/welcoming/disable', { body: { guild_id: guild } }));
    expect((await problems('welcoming', guild)).map((p: any) => p.code)).toEqual(['role_above_bot']);
    failed(await service.call('GET', '/modules/welcoming/diagnostics', { query: { guild_id: snowflake() } }), 409, 'ModuleDisabledError');
    failed(await service.call('GET', '/modules/welcoming/diagnostics', { query: { guild_id: 'x' } }), 400, 'BadRequestError');
  });
});

/** The join and leave checks: welcome by DM and in a channel, leave messages, autoroles. */
import { describe, expect, it } from 'vitest';
import { snowflake } from '#test/helpers/local.js';
import { addResponse, check, dmsOf, failed, guildApiKey, messagesIn, ok, startWorld, welcomingGuild } from './helpers.js';

const world = startWorld();

/** A guild named `Tea Club` with one earlier member and `member` who just joined as "alice" (nick "Al"). */
async function guildWithNewMember(settings: Record<string, unknown>) {
  const guild = await welcomingGuild(world, settings);
  const member = snowflake();
  await world.members.nameGuild(guild, 'Tea Club');
  await world.members.join(guild, snowflake());
  await world.members.join(guild, member, { username: 'alice', global_name: 'Alice', nick: 'Al' });
  return { guild, member };
}

describe('POST /check/welcome/dm', () => {
  it('sends the oldest DM welcome with the member and guild variables filled; an unknown <...> stays as written', async () => {
    const { guild, member } = await guildWithNewMember({ welcome_messages_dm_enabled: true });
    await addResponse(world, guild, 1, 'Welcome <user_mention> (<user_name>, <user_id>) to <server_name>, member <member_count>! <rules>');
    await addResponse(world, guild, 1, 'A second welcome');
    const res = ok(await check(world, 'welcome/dm', guild, member));
    expect(res.message).toContain('direct message');
    const dms = await dmsOf(world, member);
    expect(dms.map((m) => m.content)).toEqual([`Welcome <@${member}> (Al, ${member}) to Tea Club, member 2! <rules>`]);
  });

  it('sends the response the settings name, or a random one when randomized', async () => {
    const { guild, member } = await guildWithNewMember({ welcome_messages_dm_enabled: true });
    await addResponse(world, guild, 1, 'first');
    const named = await addResponse(world, guild, 1, 'named');
    ok(await world.call('PUT', '/settings', { body: { guild_id: guild, welcome_message_dm_response_id: named.response_id } }));
    ok(await check(world, 'welcome/dm', guild, member));
    ok(await world.call('PUT', '/settings', { body: { guild_id: guild, welcome_messages_dm_randomized: true } }));
    for (let i = 0; i < 12; i++) ok(await check(world, 'welcome/dm', guild, member));
    const contents = (await dmsOf(world, member)).map((m) => m.content);
    expect(contents[0]).toBe('named');
    expect(new Set(contents.slice(1))).toEqual(new Set(['first', 'named']));
  });

  it('renders an embed response with the variables in its strings', async () => {
    const { guild, member } = await guildWithNewMember({ welcome_messages_dm_enabled: true });
    await addResponse(
      world,
      guild,
      1,
      JSON.stringify({ title: 'Hello <user_name>', description: 'Welcome to <server_name>', fields: [{ name: 'You are', value: '#<member_count>' }] }),
      true,
    );
    ok(await check(world, 'welcome/dm', guild, member));
    const [dm] = await dmsOf(world, member);
    expect(dm!.embeds).toEqual([{ title: 'Hello Al', description: 'Welcome to Tea Club', fields: [{ name: 'You are', value: '#2' }] }]);
  });

  it('a member who does not accept DMs is a 200 saying so', async () => {
    const { guild, member } = await guildWithNewMember({ welcome_messages_dm_enabled: true });
    await addResponse(world, guild, 1, 'Hi');
    await world.members.refuseDms(member);
    const res = ok(await check(world, 'welcome/dm', guild, member));
    expect(res.message).toContain('does not accept direct messages');
    expect(await dmsOf(world, member)).toEqual([]);
  });

  it('has nothing to do when DM welcomes are off or no response exists', async () => {
    const { guild, member } = await guildWithNewMember({});
    await addResponse(world, guild, 1, 'Hi');
    expect(ok(await check(world, 'welcome/dm', guild, member)).message).toContain('welcome_messages_dm_enabled is off');
    const empty = await guildWithNewMember({ welcome_messages_dm_enabled: true });
    await addResponse(world, empty.guild, 2, 'a channel welcome is not a DM welcome');
    expect(ok(await check(world, 'welcome/dm', empty.guild, empty.member)).message).toContain('no response of type 1');
    expect(await dmsOf(world, member)).toEqual([]);
    expect(await dmsOf(world, empty.member)).toEqual([]);
  });
});

describe('POST /check/welcome/channel and /check/leave/channel', () => {
  it('welcomes in the welcome channel and says goodbye in the leave channel, with the names of GET /users for a leave', async () => {
    const welcome = snowflake();
    const leave = snowflake();
    const { guild, member } = await guildWithNewMember({
      welcome_messages_enabled: true,
      welcome_messages_channel: welcome,
      leave_messages_enabled: true,
      leave_messages_channel: leave,
    });
    await addResponse(world, guild, 2, 'Welcome <user_name>! We are <member_count>.');
    await addResponse(world, guild, 3, '<user_name> left <server_name>.');
    ok(await check(world, 'welcome/channel', guild, member));
    expect((await messagesIn(world, welcome)).map((m) => m.content)).toEqual(['Welcome Al! We are 2.']);

    await world.members.leave(guild, member);
    const left = ok(await check(world, 'leave/channel', guild, member));
    expect(left.message).toContain(`channel ${leave}`);
    expect((await messagesIn(world, leave)).map((m) => m.content)).toEqual(['Alice left Tea Club.']);
  });

  it('has nothing to do without a channel, and is a 502 when the platform refuses the post', async () => {
    const { guild, member } = await guildWithNewMember({ welcome_messages_enabled: true });
    await addResponse(world, guild, 2, 'Welcome!');
    expect(ok(await check(world, 'welcome/channel', guild, member)).message).toContain('no welcome_messages_channel');
    const channel = await world.sandbox.channelIn(guild);
    ok(await world.call('PUT', '/settings', { body: { guild_id: guild, welcome_messages_channel: channel } }));
    await world.sandbox.fault({ method: 'POST', path: `^/channels/${channel}/messages$`, status: 403, code: 50013, message: 'Missing Permissions', times: 5 });
    expect(failed(await check(world, 'welcome/channel', guild, member), 502, 'PlatformApiInteractionError')).toContain('Missing Permissions');
    await world.sandbox.clearFaults();
  });
});

describe('POST /check/role/on-join', () => {
  it('grants every autorole', async () => {
    const roles = [snowflake(), snowflake()];
    const { guild, member } = await guildWithNewMember({ autorole_enabled: true, autorole_role_ids: roles });
    expect(ok(await check(world, 'role/on-join', guild, member)).message).toContain('Granted 2 autoroles');
    expect((await world.sandbox.roles(guild, member)).sort()).toEqual([...roles].sort());
  });

  it('a refused role is a 502 naming it, after the others are granted', async () => {
    const [a, refused, c] = [snowflake(), snowflake(), snowflake()];
    const { guild, member } = await guildWithNewMember({ autorole_enabled: true, autorole_role_ids: [a, refused, c] });
    await world.sandbox.forbidRole(guild, refused);
    const message = failed(await check(world, 'role/on-join', guild, member), 502, 'PlatformApiInteractionError');
    expect(message).toContain(`role ${refused}`);
    expect(message).not.toContain(`role ${a}`);
    expect((await world.sandbox.roles(guild, member)).sort()).toEqual([a, c].sort());
  });

  it('has nothing to do with autoroles and timed roles off', async () => {
    const { guild, member } = await guildWithNewMember({ autorole_role_ids: [snowflake()] });
    expect(ok(await check(world, 'role/on-join', guild, member)).message).toContain('Nothing to do');
    expect(await world.sandbox.roles(guild, member)).toEqual([]);
  });
});

describe('every check', () => {
  const checks = ['welcome/dm', 'welcome/channel', 'leave/channel', 'role/on-join'];

  it('needs X-Acting-User-Id (400), refuses a guild key (403) and answers 409 while disabled', async () => {
    const { guild, member } = await guildWithNewMember({});
    const key = await guildApiKey(world, guild);
    for (const path of checks) {
      expect(failed(await check(world, path, guild), 400, 'BadRequestError')).toContain('X-Acting-User-Id');
      failed(
        await world.call('POST', `/check/${path}`, { body: { guild_id: guild }, token: key, headers: { 'X-Acting-User-Id': member } }),
        403,
        'ForbiddenError',
      );
    }
    failed(await world.call('POST', '/check/role/timed', { body: { guild_id: guild }, token: key }), 403, 'ForbiddenError');
    failed(await world.call('GET', '/privacy/get-user-entries', { query: { guild_id: guild, privacy_member_id: member }, token: key }), 403, 'ForbiddenError');
    ok(await world.call('POST', '/disable', { body: { guild_id: guild } }));
    for (const path of checks) failed(await check(world, path, guild, member), 409, 'ModuleDisabledError');
    failed(await check(world, 'role/timed', guild), 409, 'ModuleDisabledError');
  });
});

describe('welcome messages within the platform limits, and posted once', () => {
  /** A guild whose welcome channel is its own, with a member whose nick is 32 characters long. */
  async function guildWithLongName(settings: Record<string, unknown> = {}) {
    const { guild } = await guildWithNewMember({});
    const channel = await world.sandbox.channelIn(guild);
    const member = snowflake();
    await world.members.join(guild, member, { username: 'long', nick: 'N'.repeat(32) });
    ok(await world.call('PUT', '/settings', { body: { guild_id: guild, welcome_messages_enabled: true, welcome_messages_channel: channel, ...settings } }));
    return { guild, channel, member };
  }

  it('a welcome that fills past 2000 characters is posted, cut to 2000 ending in …', async () => {
    const { guild, channel, member } = await guildWithLongName();
    await addResponse(world, guild, 2, `${'w'.repeat(1989)}<user_name>`);
    ok(await check(world, 'welcome/channel', guild, member));
    const [posted] = await messagesIn(world, channel);
    expect(posted!.content).toHaveLength(2000);
    expect(posted!.content).toBe(`${'w'.repeat(1989)}${'N'.repeat(10)}…`);
  });

  it('an embed welcome whose title and field fill past their limits is posted with each cut ending in …', async () => {
    const { guild, channel, member } = await guildWithLongName();
    const embed = { title: '<user_name>'.repeat(23), fields: [{ name: 'Hi', value: '<user_name>'.repeat(90) }], footer: { text: 'f' } };
    await addResponse(world, guild, 2, JSON.stringify(embed), true);
    ok(await check(world, 'welcome/channel', guild, member));
    const [posted] = await messagesIn(world, channel);
    const shown = posted!.embeds[0]!;
    expect(shown.title).toBe(`${'N'.repeat(255)}…`);
    expect(shown.fields![0]!.value).toBe(`${'N'.repeat(1023)}…`);
    expect(shown.footer!.text).toBe('f');
  });

  it('a welcome the platform stored before answering 500 is posted once', async () => {
    const { guild, channel, member } = await guildWithLongName();
    await addResponse(world, guild, 2, 'Welcome <user_mention>!');
    await world.sandbox.fault({ method: 'POST', path: `^/channels/${channel}/messages$`, status: 500, after_effect: true });
    ok(await check(world, 'welcome/channel', guild, member));
    expect((await messagesIn(world, channel)).map((m) => m.content)).toEqual([`Welcome <@${member}>!`]);
  });

  it('a DM welcome the platform stored before answering 503 reaches the member once', async () => {
    const { guild, member } = await guildWithNewMember({ welcome_messages_dm_enabled: true });
    await addResponse(world, guild, 1, 'Hello by DM');
    await world.sandbox.fault({ method: 'POST', path: '^/channels/[0-9]+/messages$', status: 503, after_effect: true });
    ok(await check(world, 'welcome/dm', guild, member));
    expect((await dmsOf(world, member)).map((m) => m.content)).toEqual(['Hello by DM']);
  });
});

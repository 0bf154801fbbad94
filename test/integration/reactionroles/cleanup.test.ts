import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listModuleItems } from '#functions/reactionroles/store.js';
import { errorOf, snowflake } from '#test/helpers/local.js';
import { RR, type World, click, createPanel, enabledGuild, ok, panelWithEntries, react, startWorld } from './fixture.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.service.stop());

const checkDelete = (guild: string, channel: string, message: string | null, token?: string) =>
  world.service.call('POST', `${RR}/panel/check-delete`, { body: { guild_id: guild, channel_id: channel, message_id: message }, token });
const count = (guild: string, member: string, token?: string) =>
  world.service.call('GET', `${RR}/privacy/get-user-entries`, { query: { guild_id: guild, privacy_member_id: member }, token });
const forget = (guild: string, member: string, token?: string) =>
  world.service.call('DELETE', `${RR}/privacy/delete-user-entries`, { body: { guild_id: guild, privacy_member_id: member }, token });

describe('a deleted message or channel', () => {
  it('a deleted message drops its panel, entries and claims; other panels stay', async () => {
    const guild = await enabledGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    const gone = await panelWithEntries(world, guild, { channel_id: channel }, ['😀', '🎉']);
    const stays = await panelWithEntries(world, guild, { channel_id: channel }, ['😀']);
    const member = snowflake();
    ok(await react(world, guild, gone.panel, member, '😀'));
    const data = ok(await checkDelete(guild, channel, gone.panel.message_id));
    expect(data).toEqual({ panels: [gone.panel], entries: gone.entries });
    expect((await world.service.call('GET', `${RR}/panel/${gone.panel.panel_id}`, { query: { guild_id: guild } })).status).toBe(404);
    expect(ok(await world.service.call('GET', `${RR}/panel/${stays.panel.panel_id}`, { query: { guild_id: guild } })).panel).toEqual(stays.panel);
    expect(ok(await count(guild, member)).id).toBe(0);
    // The member keeps the roles; the bot no longer finds a panel there.
    expect(await world.sandbox.roles(guild, member)).toEqual(gone.entries[0].role_ids);
    expect((await react(world, guild, gone.panel, member, '🎉')).status).toBe(404);
  });

  it('a deleted channel (message_id null) drops every panel in it', async () => {
    const guild = await enabledGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    const a = await createPanel(world, guild, { channel_id: channel });
    const b = await createPanel(world, guild, { channel_id: channel, panel_type: 'button' });
    const elsewhere = await createPanel(world, guild);
    const data = ok(await checkDelete(guild, channel, null));
    expect(data.panels).toEqual([b, a]);
    expect(ok(await world.service.call('GET', `${RR}/panels`, { query: { guild_id: guild } })).panels).toEqual([elsewhere]);
    const omitted = ok(await world.service.call('POST', `${RR}/panel/check-delete`, { body: { guild_id: guild, channel_id: elsewhere.channel_id } }));
    expect(omitted.panels).toEqual([elsewhere]);
  });

  it('answers 200 with nothing when there was no panel, 409 while disabled, 403 to a guild key, 400 without channel_id', async () => {
    const guild = await enabledGuild(world);
    expect(ok(await checkDelete(guild, snowflake(), snowflake()))).toEqual({ panels: [], entries: [] });
    const key = ok(await world.service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key;
    expect((await checkDelete(guild, snowflake(), null, key.secret)).status).toBe(403);
    expect((await world.service.call('POST', `${RR}/panel/check-delete`, { looseBody: { guild_id: guild, message_id: null } })).status).toBe(400);
    ok(await world.service.call('POST', `${RR}/disable`, { body: { guild_id: guild } }));
    expect(errorOf(await checkDelete(guild, snowflake(), null)).name).toBe('ModuleDisabledError');
  });
});

describe('deleting the module', () => {
  it('removes every panel, entry and claim, resets the module, and answers what it removed', async () => {
    const guild = await enabledGuild(world);
    const other = await enabledGuild(world);
    const emoji = await panelWithEntries(world, guild, {}, ['😀', '🎉']);
    const buttons = await panelWithEntries(world, guild, { panel_type: 'button' }, ['🔥']);
    const kept = await panelWithEntries(world, other, {}, ['😀']);
    const member = snowflake();
    ok(await react(world, guild, emoji.panel, member, '😀'));
    ok((await click(world, guild, buttons.panel, member, `rr:${buttons.entries[0].entry_id}`)).res);
    ok(await react(world, other, kept.panel, member, '😀'));

    const data = ok(await world.service.call('DELETE', `${RR}/delete`, { body: { guild_id: guild } }));
    expect(data).toEqual({ panels: [buttons.panel, emoji.panel], entries: [...buttons.entries, ...emoji.entries] });
    // The panels go before the answer; the claims own nothing from then on (privacy counts none) and go behind it.
    expect((await listModuleItems(guild)).panels).toEqual([]);
    expect(ok(await count(guild, member)).id).toBe(0);
    await expect.poll(async () => (await listModuleItems(guild)).claims, { timeout: 15_000 }).toEqual([]);
    expect(ok(await world.service.call('GET', `${RR}/status`, { query: { guild_id: guild } }))).toEqual({ status: false });
    expect((await world.service.call('GET', `${RR}/panels`, { query: { guild_id: guild } })).status).toBe(409);
    // Another guild is untouched; the messages stay on the platform.
    expect(ok(await count(other, member)).id).toBe(1);
    expect(await world.sandbox.message(emoji.panel.channel_id, emoji.panel.message_id)).not.toBeNull();

    ok(await world.service.call('POST', `${RR}/enable`, { body: { guild_id: guild } }));
    expect(ok(await world.service.call('GET', `${RR}/panels`, { query: { guild_id: guild } })).total).toBe(0);
  });

  it('works while disabled and on a guild never seen; a guild key may call it for its guild only', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    ok(await world.service.call('POST', `${RR}/disable`, { body: { guild_id: guild } }));
    const key = ok(await world.service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key;
    expect((await world.service.call('DELETE', `${RR}/delete`, { body: { guild_id: snowflake() }, token: key.secret })).status).toBe(403);
    expect(ok(await world.service.call('DELETE', `${RR}/delete`, { body: { guild_id: guild }, token: key.secret })).panels).toEqual([panel]);
    expect(ok(await world.service.call('DELETE', `${RR}/delete`, { body: { guild_id: snowflake() } }))).toEqual({ panels: [], entries: [] });
    expect((await world.service.call('DELETE', `${RR}/delete`, { looseBody: {} })).status).toBe(400);
  });
});

describe('privacy', () => {
  it("counts a member's claims across panels and deletes them; roles stay and counts are 0 afterwards", async () => {
    const guild = await enabledGuild(world);
    const a = await panelWithEntries(world, guild, {}, ['😀', '🎉']);
    const b = await panelWithEntries(world, guild, { panel_type: 'dropdown' }, ['🔥']);
    const member = snowflake();
    const bystander = snowflake();
    ok(await react(world, guild, a.panel, member, '😀'));
    ok(await react(world, guild, a.panel, member, '🎉'));
    ok((await click(world, guild, b.panel, member, 'rr:select', b.entries[0].entry_id)).res);
    ok(await react(world, guild, a.panel, bystander, '😀'));

    expect(ok(await count(guild, member))).toEqual({ username: 0, display_name: 0, global_name: 0, nickname: 0, id: 2 });
    const deleted = ok(await forget(guild, member));
    expect(deleted).toEqual({ message: `Deleted 2 reaction-role claims of member ${member} in guild ${guild}; roles already granted stay with the member.` });
    expect(ok(await count(guild, member))).toEqual({ username: 0, display_name: 0, global_name: 0, nickname: 0, id: 0 });
    expect(ok(await count(guild, bystander)).id).toBe(1);
    expect((await world.sandbox.roles(guild, member)).length).toBe(3);
    expect(ok(await forget(guild, member)).message).toContain('Deleted 0 reaction-role claims');
  });

  it('works in any module state, is internal (403 to a guild key), and answers 400 without privacy_member_id', async () => {
    const guild = snowflake();
    const member = snowflake();
    expect(ok(await count(guild, member)).id).toBe(0);
    expect(ok(await forget(guild, member)).message).toContain('Deleted 0');
    const key = ok(await world.service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key;
    expect(errorOf(await count(guild, member, key.secret))).toMatchObject({ code: 403, name: 'ForbiddenError' });
    expect((await forget(guild, member, key.secret)).status).toBe(403);
    expect((await world.service.call('GET', `${RR}/privacy/get-user-entries`, { query: { guild_id: guild } })).status).toBe(400);
    expect((await world.service.call('DELETE', `${RR}/privacy/delete-user-entries`, { body: { guild_id: guild, privacy_member_id: 'x' } })).status).toBe(400);
  });
});

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#shared/db/client.js';
import { errorOf, snowflake } from '#test/helpers/local.js';
import { EMOJIS, RR, type World, addEntry, createPanel, enabledGuild, ok, panelBody, panelWithEntries, startWorld } from './fixture.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.service.stop());

const PANEL_FIELDS = [
  'id',
  'guild_id',
  'panel_id',
  'panel_type',
  'channel_id',
  'message_id',
  'is_service_message',
  'message_content',
  'message_is_embed',
  'limit_roles_to_one',
  'supports_remove',
  'keep_counter_at_one',
  'delete_unrelated_emoji_reactions',
  'remove_roles_from_users_on_entry_delete',
  'created_at',
].sort();

const post = (body: Record<string, unknown>, token?: string) => world.service.call('POST', `${RR}/panels`, { looseBody: body, token });
const get = (guild: string, panelId: string) => world.service.call('GET', `${RR}/panel/${panelId}`, { query: { guild_id: guild } });
const list = (guild: string, query: Record<string, number> = {}) => world.service.call('GET', `${RR}/panels`, { query: { guild_id: guild, ...query } });
const edit = (guild: string, panelId: string, body: Record<string, unknown>) =>
  world.service.call('PUT', `${RR}/panel/${panelId}`, { looseBody: { guild_id: guild, ...body } });
const remove = (guild: string, panelId: string) => world.service.call('DELETE', `${RR}/panel/${panelId}`, { body: { guild_id: guild } });

/** An edit body keeping a panel's settings, with `changes` applied. */
const editBody = (panel: Record<string, unknown>, changes: Record<string, unknown> = {}) => ({
  panel_type: panel.panel_type,
  limit_roles_to_one: panel.limit_roles_to_one,
  supports_remove: panel.supports_remove,
  remove_roles_from_users_on_entry_delete: panel.remove_roles_from_users_on_entry_delete,
  keep_counter_at_one: panel.keep_counter_at_one,
  delete_unrelated_emoji_reactions: panel.delete_unrelated_emoji_reactions,
  message_content: panel.message_content,
  message_is_embed: panel.message_is_embed,
  ...changes,
});

describe('creating a panel', () => {
  it('posts the message in the channel and answers exactly the panel record', async () => {
    const guild = await enabledGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    const panel = ok(await post(panelBody(guild, channel, { content: 'React for roles <@&1>' }))).panel;
    expect(Object.keys(panel).sort()).toEqual(PANEL_FIELDS);
    expect(panel).toMatchObject({
      guild_id: guild,
      channel_id: channel,
      panel_type: 'emoji',
      is_service_message: true,
      message_content: 'React for roles <@&1>',
      message_is_embed: false,
      limit_roles_to_one: false,
      supports_remove: true,
      keep_counter_at_one: false,
      delete_unrelated_emoji_reactions: false,
      remove_roles_from_users_on_entry_delete: false,
    });
    expect(Number.isSafeInteger(panel.id) && panel.id > 0).toBe(true);
    expect(panel.panel_id).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(new Date(panel.created_at).toISOString()).toBe(panel.created_at);

    const message = await world.sandbox.message(channel, panel.message_id);
    expect(message).toMatchObject({ content: 'React for roles <@&1>', embeds: [], components: [], author: { bot: true } });
    expect(ok(await get(guild, panel.panel_id)).panel).toEqual(panel);
  });

  it('posts embed JSON as an embed', async () => {
    const guild = await enabledGuild(world);
    const embed = { title: 'Roles', description: 'Pick one', fields: [{ name: 'a', value: 'b' }], color: 5 };
    const panel = await createPanel(world, guild, {
      panel_type: 'button',
      is_embed: true,
      content: JSON.stringify(embed),
      keep_counter_at_one: undefined,
      delete_unrelated_emoji_reactions: undefined,
    });
    expect(panel).toMatchObject({
      message_is_embed: true,
      message_content: JSON.stringify(embed),
      panel_type: 'button',
      keep_counter_at_one: false,
      delete_unrelated_emoji_reactions: false,
    });
    const message = await world.sandbox.message(panel.channel_id, panel.message_id);
    expect(message?.content).toBe('');
    expect(message?.embeds).toEqual([embed]);
  });

  it('registers an existing message as an emoji panel without touching it', async () => {
    const guild = await enabledGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    const own = await world.sandbox.post(channel, snowflake(), { content: 'my own message' });
    const body = panelBody(guild, channel, { is_register: true, register_message_id: own.id, is_embed: undefined, content: undefined });
    const panel = ok(await post(body)).panel;
    expect(panel).toMatchObject({ message_id: own.id, is_service_message: false, message_content: null, message_is_embed: false });
    expect((await world.sandbox.message(channel, own.id))?.content).toBe('my own message');

    const again = await post(body);
    expect(again.status).toBe(422);
    expect(errorOf(again).message).toBe(`Unprocessable Entity! Field 'register_message_id': message ${own.id} already is a reaction-role panel.`);
  });

  it('keeps IDs above 2^53 digit for digit', async () => {
    const guild = '18446744073709551615';
    ok(await world.service.call('POST', `${RR}/enable`, { rawBody: `{"guild_id": ${guild}}` }));
    const channel = await world.sandbox.channelIn(guild, '18446744073709551614');
    const res = await world.service.call('POST', `${RR}/panels`, {
      rawBody: `{"guild_id": ${guild}, "is_register": false, "channel_id": ${channel}, "limit_roles_to_one": false, "supports_remove": false, "remove_roles_from_users_on_entry_delete": false, "panel_type": "button", "is_embed": false, "content": "x"}`,
    });
    expect(ok(res).panel).toMatchObject({ guild_id: guild, channel_id: channel });
  });

  it.each([
    ['is_register', { is_register: undefined }, "Field 'is_register' is required (a boolean (true or false))."],
    ['channel_id', { channel_id: 'general' }, "Field 'channel_id' must be a snowflake ID"],
    ['supports_remove', { supports_remove: 'yes' }, "Field 'supports_remove' must be a boolean (true or false), not a string."],
    ['content', { content: 5 }, "Field 'content' must be a string, not an integer."],
    ['register_message_id', { register_message_id: -1 }, "Field 'register_message_id' must be null or a snowflake ID"],
  ])('answers 400 for the shape of %s', async (_field, overrides, message) => {
    const guild = await enabledGuild(world);
    const res = await post(panelBody(guild, await world.sandbox.channelIn(guild), overrides));
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 400, name: 'BadRequestError' });
    expect(errorOf(res).message).toContain(message);
  });

  const big = 'x'.repeat(2001);
  const hugeEmbed = JSON.stringify({
    description: 'd'.repeat(4000),
    fields: [
      { name: 'n', value: 'v'.repeat(1000) },
      { name: 'n', value: 'v'.repeat(1000) },
      { name: 'n', value: 'v'.repeat(1000) },
    ],
  });
  it.each([
    ['keep_counter_at_one on an emoji panel', { keep_counter_at_one: undefined }, "Field 'keep_counter_at_one' is required when panel_type is emoji."],
    [
      'delete_unrelated_emoji_reactions on an emoji panel',
      { delete_unrelated_emoji_reactions: null },
      "Field 'delete_unrelated_emoji_reactions' is required when panel_type is emoji.",
    ],
    [
      'register_message_id when registering',
      { is_register: true, content: undefined, is_embed: undefined },
      "Field 'register_message_id' is required when is_register is true.",
    ],
    [
      'panel_type emoji when registering',
      { is_register: true, register_message_id: snowflake(), panel_type: 'dropdown' },
      `Field 'panel_type' must be "emoji" when is_register is true`,
    ],
    ['is_embed when not registering', { is_embed: undefined }, "Field 'is_embed' is required when is_register is false."],
    ['content when not registering', { content: null }, "Field 'content' is required when is_register is false."],
    ['content of at most 2000 characters', { content: big }, "Field 'content' must be at most 2000 characters (it has 2001)."],
    ['content that is not empty', { content: '' }, "Field 'content' must not be empty."],
    [
      'embed JSON that parses',
      { is_embed: true, content: '{title:' },
      "Field 'content' must be embed JSON when the message is an embed (it does not parse as JSON).",
    ],
    ['embed JSON that is an object', { is_embed: true, content: '[1]' }, "Field 'content' must be embed JSON that parses to an object"],
    [
      'embed text of at most 6000 characters',
      { is_embed: true, content: hugeEmbed },
      "Field 'content' must hold an embed with at most 6000 characters of text in total (it has 7003).",
    ],
    ['a panel_type the service knows', { panel_type: 'slider' }, 'Field \'panel_type\' must be one of: "emoji", "button", "dropdown".'],
  ])('answers 422 for the rule: %s', async (_rule, overrides, message) => {
    const guild = await enabledGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    const res = await post(panelBody(guild, channel, overrides));
    expect(res.status).toBe(422);
    expect(errorOf(res)).toMatchObject({ code: 422, name: 'Unprocessable Entity' });
    expect(errorOf(res).message).toContain(`Unprocessable Entity! ${message}`);
    expect(ok(await list(guild)).total).toBe(0);
  });

  it('answers 422 when the message to register is not in the channel', async () => {
    const guild = await enabledGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    const elsewhere = await world.sandbox.post(snowflake(), snowflake(), { content: 'elsewhere' });
    const res = await post(panelBody(guild, channel, { is_register: true, register_message_id: elsewhere.id }));
    expect(res.status).toBe(422);
    expect(errorOf(res).message).toBe(
      `Unprocessable Entity! Field 'body.register_message_id' names message ${elsewhere.id} in channel ${channel}, which the platform does not know.`,
    );
  });

  it('does not need the emoji-only settings on button and dropdown panels, and stores them as false', async () => {
    const guild = await enabledGuild(world);
    for (const type of ['button', 'dropdown']) {
      const panel = await createPanel(world, guild, { panel_type: type, keep_counter_at_one: true, delete_unrelated_emoji_reactions: undefined });
      expect(panel).toMatchObject({ panel_type: type, keep_counter_at_one: false, delete_unrelated_emoji_reactions: false });
    }
  });

  it('answers 409 while the module is disabled, after checking the input', async () => {
    const guild = snowflake();
    const invalid = await post(panelBody(guild, await world.sandbox.channelIn(guild), { content: null }));
    expect(invalid.status).toBe(422);
    const res = await post(panelBody(guild, await world.sandbox.channelIn(guild)));
    expect(res.status).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: 409, name: 'ModuleDisabledError' });
    expect((await list(guild)).status).toBe(409);
  });

  it("answers 403 to another guild's API key", async () => {
    const guild = await enabledGuild(world);
    const key = ok(await world.service.call('POST', '/auth/api-key', { body: { guild_id: snowflake() } })).api_key;
    const res = await post(panelBody(guild, await world.sandbox.channelIn(guild)), key.secret);
    expect(res.status).toBe(403);
    expect(errorOf(res).name).toBe('ForbiddenError');
    const own = ok(await world.service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key;
    expect((await post(panelBody(guild, await world.sandbox.channelIn(guild)), own.secret)).status).toBe(200);
  });

  it('stores nothing when the platform keeps failing (502), and retries a 5xx once', async () => {
    const guild = await enabledGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    await world.sandbox.fault({ method: 'POST', path: `^/channels/${channel}/messages$`, status: 500, times: 3 });
    const res = await post(panelBody(guild, channel));
    expect(res.status).toBe(502);
    expect(errorOf(res)).toMatchObject({ code: 502, name: 'PlatformApiInteractionError' });
    expect(errorOf(res).message).toContain('500');
    expect(ok(await list(guild)).total).toBe(0);

    await world.sandbox.fault({ method: 'POST', path: `^/channels/${channel}/messages$`, status: 503, times: 1 });
    const panel = ok(await post(panelBody(guild, channel))).panel;
    const state = await world.sandbox.state();
    expect(state.channels.find((c) => c.id === channel)?.messages.map((m) => m.id)).toEqual([panel.message_id]);
  });

  it('deletes the message it posted when storing the panel fails', async () => {
    const guild = await enabledGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    const client = db();
    const send = client.send.bind(client);
    const unavailable = Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException', $metadata: {} });
    // The table refuses the panel item once; everything else goes through.
    (client as { send: unknown }).send = (command: { input?: { Item?: { sk?: string } } }, ...rest: unknown[]) => {
      if (command instanceof PutCommand && String(command.input.Item?.sk).startsWith('RR#PANEL#')) {
        client.send = send;
        return Promise.reject(unavailable);
      }
      return (send as (...args: unknown[]) => unknown)(command, ...rest);
    };
    try {
      const res = await post(panelBody(guild, channel));
      expect(res.status).toBe(503);
      expect(errorOf(res).name).toBe('DatabaseError');
    } finally {
      client.send = send;
    }
    expect(ok(await list(guild)).total).toBe(0);
    const state = await world.sandbox.state();
    expect(state.channels.find((c) => c.id === channel)?.messages ?? []).toEqual([]);
    const log = await world.sandbox.requests();
    expect(log.filter((r) => r.path.startsWith(`/channels/${channel}/messages`)).map((r) => `${r.method} ${r.status}`)).toEqual(['POST 200', 'DELETE 204']);
  });

  it('waits out one 429 and posts', async () => {
    const guild = await enabledGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    await world.sandbox.fault({ method: 'POST', path: `^/channels/${channel}/messages$`, status: 429, retry_after: 0.05 });
    const panel = ok(await post(panelBody(guild, channel))).panel;
    expect(await world.sandbox.message(channel, panel.message_id)).not.toBeNull();
  });

  it('answers 502 when the platform refuses the post (403)', async () => {
    const guild = await enabledGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    await world.sandbox.fault({ method: 'POST', path: `^/channels/${channel}/messages$`, status: 403, code: 50013, message: 'Missing Permissions' });
    const res = await post(panelBody(guild, channel));
    expect(res.status).toBe(502);
    expect(errorOf(res).message).toContain('403 Missing Permissions (code 50013)');
    expect(ok(await list(guild)).total).toBe(0);
  });
});

describe('listing and reading panels', () => {
  it('pages the panels newest first', async () => {
    const guild = await enabledGuild(world);
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await createPanel(world, guild, { content: `panel ${i}` }));
    const first = ok(await list(guild, { page: 1, page_size: 2 }));
    expect(first).toMatchObject({ page: 1, page_size: 2, total: 5 });
    expect(first.panels.map((p: { message_content: string }) => p.message_content)).toEqual(['panel 4', 'panel 3']);
    const last = ok(await list(guild, { page: 3, page_size: 2 }));
    expect(last.panels).toEqual([created[0]]);
    expect(ok(await list(guild, { page: 4, page_size: 2 })).panels).toEqual([]);
    expect(ok(await list(guild)).page_size).toBe(10);
    expect((await list(guild, { page: 0 })).status).toBe(422);
    expect((await list(guild, { page_size: 101 })).status).toBe(422);
    expect((await world.service.call('GET', `${RR}/panels`, { query: { guild_id: guild, page: 'one' } })).status).toBe(400);
  });

  it('answers 404 for a panel the guild does not have, even one of another guild', async () => {
    const guild = await enabledGuild(world);
    const other = await enabledGuild(world);
    const panel = await createPanel(world, other);
    const res = await get(guild, panel.panel_id);
    expect(res.status).toBe(404);
    expect(errorOf(res)).toEqual({ code: 404, name: 'NotFoundError', message: `Not Found! Guild ${guild} has no reaction-role panel '${panel.panel_id}'.` });
    expect((await get(guild, 'nope')).status).toBe(404);
  });
});

describe('editing a panel', () => {
  it('changes settings and the text of the service message', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    const embed = JSON.stringify({ title: 'New look' });
    const edited = ok(
      await edit(
        guild,
        panel.panel_id,
        editBody(panel, { limit_roles_to_one: true, keep_counter_at_one: true, message_content: embed, message_is_embed: true }),
      ),
    ).panel;
    expect(edited).toEqual({ ...panel, limit_roles_to_one: true, keep_counter_at_one: true, message_content: embed, message_is_embed: true });
    expect(ok(await get(guild, panel.panel_id)).panel).toEqual(edited);
    const message = await world.sandbox.message(panel.channel_id, panel.message_id);
    expect(message).toMatchObject({ content: '', embeds: [{ title: 'New look' }] });

    ok(await edit(guild, panel.panel_id, editBody(edited, { message_content: 'plain again', message_is_embed: false })));
    expect(await world.sandbox.message(panel.channel_id, panel.message_id)).toMatchObject({ content: 'plain again', embeds: [] });
  });

  it('switches the type: reactions become buttons, buttons a dropdown, and back to reactions', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, {}, EMOJIS.slice(0, 7));
    const at = () => world.sandbox.message(panel.channel_id, panel.message_id);
    expect((await at())?.reactions?.map((r) => r.emoji.name)).toEqual(EMOJIS.slice(0, 7));

    ok(await edit(guild, panel.panel_id, editBody(panel, { panel_type: 'button' })));
    let message = await at();
    expect(message?.reactions).toBeUndefined();
    expect(message?.components?.map((row) => row.components.length)).toEqual([5, 2]);
    expect(message?.components?.[1]?.components[1]).toMatchObject({
      type: 2,
      label: 'Choice 7',
      emoji: { name: EMOJIS[6] },
      custom_id: `rr:${entries[6].entry_id}`,
    });

    const dropdown = ok(
      await edit(guild, panel.panel_id, editBody(panel, { panel_type: 'dropdown', limit_roles_to_one: true, keep_counter_at_one: null })),
    ).panel;
    expect(dropdown.keep_counter_at_one).toBe(false);
    message = await at();
    expect(message?.components).toHaveLength(1);
    const select = message?.components?.[0]?.components[0];
    expect(select).toMatchObject({ type: 3, max_values: 1, min_values: 0 });
    expect(select?.type === 3 && select.options?.map((o: { value: string }) => o.value)).toEqual(entries.map((e: { entry_id: string }) => e.entry_id));

    ok(await edit(guild, panel.panel_id, editBody(panel, { panel_type: 'emoji' })));
    message = await at();
    expect(message?.components).toEqual([]);
    expect(message?.reactions?.map((r) => r.emoji.name)).toEqual(EMOJIS.slice(0, 7));
  });

  it('answers 422 when the entries do not fit the new type', async () => {
    const guild = await enabledGuild(world);
    const buttons = await createPanel(world, guild, { panel_type: 'button' });
    for (const emoji of EMOJIS.slice(0, 21)) await addEntry(world, guild, buttons.panel_id, { emoji_name: emoji });
    const tooMany = await edit(
      guild,
      buttons.panel_id,
      editBody(buttons, { panel_type: 'emoji', keep_counter_at_one: false, delete_unrelated_emoji_reactions: false }),
    );
    expect(tooMany.status).toBe(422);
    expect(errorOf(tooMany).message).toContain('A emoji panel holds at most 20 entries; this panel has 21.');
    const noText = await edit(guild, buttons.panel_id, editBody(buttons, { panel_type: 'dropdown' }));
    expect(noText.status).toBe(422);
    expect(errorOf(noText).message).toContain("needs 'text': it is the option's label on a dropdown panel.");
    expect(ok(await get(guild, buttons.panel_id)).panel).toEqual(buttons);
  });

  it('keeps a registered panel an emoji panel and its text untouched', async () => {
    const guild = await enabledGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    const own = await world.sandbox.post(channel, snowflake(), { content: 'mine' });
    const panel = await createPanel(world, guild, { is_register: true, register_message_id: own.id }, channel);
    const toButton = await edit(guild, panel.panel_id, editBody(panel, { panel_type: 'button' }));
    expect(toButton.status).toBe(422);
    expect(errorOf(toButton).message).toContain('Field \'panel_type\' must be "emoji"');
    const newText = await edit(guild, panel.panel_id, editBody(panel, { message_content: 'changed' }));
    expect(newText.status).toBe(422);
    expect(errorOf(newText).message).toContain("Field 'message_content' must be null");
    const settings = ok(await edit(guild, panel.panel_id, editBody(panel, { supports_remove: false, message_is_embed: true }))).panel;
    expect(settings).toEqual({ ...panel, supports_remove: false });
  });

  it('answers 422 for missing conditional fields and content rules, 400 for shape, 404 for no panel', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    const rules: [Record<string, unknown>, string][] = [
      [{ keep_counter_at_one: undefined }, "Field 'keep_counter_at_one' is required when panel_type is emoji."],
      [{ message_content: null }, "Field 'message_content' is required: panel"],
      [{ message_content: 'y'.repeat(2001) }, "Field 'message_content' must be at most 2000 characters"],
      [{ message_content: 'not json', message_is_embed: true }, "Field 'message_content' must be embed JSON"],
    ];
    for (const [changes, message] of rules) {
      const res = await edit(guild, panel.panel_id, editBody(panel, changes));
      expect(res.status, message).toBe(422);
      expect(errorOf(res).message).toContain(message);
    }
    expect((await edit(guild, panel.panel_id, editBody(panel, { message_is_embed: undefined }))).status).toBe(400);
    expect((await edit(guild, 'missing', editBody(panel))).status).toBe(404);
    expect(ok(await get(guild, panel.panel_id)).panel).toEqual(panel);
  });

  it('changes nothing when the platform refuses the edit', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    await world.sandbox.fault({ method: 'PATCH', path: `/messages/${panel.message_id}$`, status: 500, times: 3 });
    const res = await edit(guild, panel.panel_id, editBody(panel, { message_content: 'will fail' }));
    expect(res.status).toBe(502);
    expect(ok(await get(guild, panel.panel_id)).panel).toEqual(panel);
    expect((await world.sandbox.message(panel.channel_id, panel.message_id))?.content).toBe('Pick your roles');
  });
});

describe('deleting a panel', () => {
  it("deletes the service's message and answers the panel with its entries", async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { panel_type: 'button' }, EMOJIS.slice(0, 2));
    const res = ok(await remove(guild, panel.panel_id));
    expect(res).toEqual({ panel, entries });
    expect(await world.sandbox.message(panel.channel_id, panel.message_id)).toBeNull();
    expect((await get(guild, panel.panel_id)).status).toBe(404);
    expect((await remove(guild, panel.panel_id)).status).toBe(404);
  });

  it("takes only the service's reactions off a registered message", async () => {
    const guild = await enabledGuild(world);
    const channel = await world.sandbox.channelIn(guild);
    const member = snowflake();
    const own = await world.sandbox.post(channel, member, { content: 'mine' });
    const panel = await createPanel(world, guild, { is_register: true, register_message_id: own.id }, channel);
    await addEntry(world, guild, panel.panel_id, { emoji_name: '😀' });
    await addEntry(world, guild, panel.panel_id, { emoji_name: '🎉' });
    await world.sandbox.react(channel, own.id, '😀', member);
    ok(await remove(guild, panel.panel_id));
    const message = await world.sandbox.message(channel, own.id);
    expect(message?.content).toBe('mine');
    expect(message?.reactions).toEqual([expect.objectContaining({ count: 1, me: false, emoji: { id: null, name: '😀' } })]);
  });

  it('still deletes the panel when its message is already gone, and keeps it when the platform fails', async () => {
    const guild = await enabledGuild(world);
    const gone = await createPanel(world, guild);
    await fetch(`${world.service.sandboxUrl}/channels/${gone.channel_id}/messages/${gone.message_id}`, {
      method: 'DELETE',
      headers: { authorization: 'Bot x' },
    });
    expect(ok(await remove(guild, gone.panel_id)).panel).toEqual(gone);

    const kept = await createPanel(world, guild);
    await world.sandbox.fault({ method: 'DELETE', path: `/messages/${kept.message_id}$`, status: 502, times: 3 });
    expect((await remove(guild, kept.panel_id)).status).toBe(502);
    expect(ok(await get(guild, kept.panel_id)).panel).toEqual(kept);
    expect(await world.sandbox.message(kept.channel_id, kept.message_id)).not.toBeNull();
  });

  it('answers 409 while disabled and 400 without guild_id', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    expect((await world.service.call('DELETE', `${RR}/panel/${panel.panel_id}`, { looseBody: {} })).status).toBe(400);
    ok(await world.service.call('POST', `${RR}/disable`, { body: { guild_id: guild } }));
    for (const res of [await remove(guild, panel.panel_id), await get(guild, panel.panel_id), await edit(guild, panel.panel_id, editBody(panel))]) {
      expect(res.status).toBe(409);
      expect(errorOf(res).name).toBe('ModuleDisabledError');
    }
    expect(await world.sandbox.message(panel.channel_id, panel.message_id)).not.toBeNull();
  });
});

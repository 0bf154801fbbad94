import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, snowflake } from '#test/helpers/local.js';
import { EMOJIS, RR, type World, addEntry, click, createPanel, enabledGuild, ok, panelWithEntries, react, startWorld, newRoles } from './fixture.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.service.stop());

type PanelRef = { channel_id: string; message_id: string; panel_id: string };

/** A member reacts on the sandbox, then the bot reports it: what really happens on the platform. */
async function memberReacts(guild: string, panel: PanelRef, member: string, emoji: string) {
  await world.sandbox.react(panel.channel_id, panel.message_id, emoji, member);
  return react(world, guild, panel, member, emoji);
}

async function memberUnreacts(guild: string, panel: PanelRef, member: string, emoji: string) {
  await world.sandbox.unreact(panel.channel_id, panel.message_id, emoji, member);
  return react(world, guild, panel, member, emoji, 'reaction_delete');
}

const reactors = (panel: PanelRef, emoji: string) => world.sandbox.reactors(panel.channel_id, panel.message_id, emoji);
const held = async (guild: string, member: string) =>
  ok(await world.service.call('GET', `${RR}/privacy/get-user-entries`, { query: { guild_id: guild, privacy_member_id: member } })).id as number;
const BOT = '1000000000000000001';

describe('reactions on an emoji panel', () => {
  it('grants the roles of the entry and answers what changed', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    const roles = await newRoles(world, guild, 2);
    const entry = await addEntry(world, guild, panel.panel_id, { emoji_name: '😀', role_ids: roles });
    const member = snowflake();
    const data = ok(await memberReacts(guild, panel, member, '😀'));
    expect(data).toEqual({
      panel_id: panel.panel_id,
      entry_id: entry.entry_id,
      member_id: member,
      changed: true,
      claimed: [entry.entry_id],
      released: [],
      roles_added: roles,
      roles_removed: [],
      entries_held: [entry.entry_id],
      message: `You received <@&${roles[0]}>, <@&${roles[1]}>.`,
    });
    expect(await world.sandbox.roles(guild, member)).toEqual([...roles].sort());
    expect(await held(guild, member)).toBe(1);

    const again = ok(await react(world, guild, panel, member, '😀'));
    expect(again).toMatchObject({
      changed: false,
      roles_added: [],
      entries_held: [entry.entry_id],
      message: 'Nothing changed: you already have the roles of this choice.',
    });
  });

  it('releases on un-react when supports_remove, and not otherwise', async () => {
    const guild = await enabledGuild(world);
    const removable = await panelWithEntries(world, guild, { supports_remove: true }, ['😀']);
    const fixed = await panelWithEntries(world, guild, { supports_remove: false }, ['😀']);
    const member = snowflake();
    ok(await memberReacts(guild, removable.panel, member, '😀'));
    ok(await memberReacts(guild, fixed.panel, member, '😀'));
    const roleA = removable.entries[0].role_ids[0];
    const roleB = fixed.entries[0].role_ids[0];
    expect(await world.sandbox.roles(guild, member)).toEqual([roleA, roleB].sort());

    expect(ok(await memberUnreacts(guild, removable.panel, member, '😀'))).toMatchObject({
      changed: true,
      released: [removable.entries[0].entry_id],
      roles_removed: [roleA],
    });
    const kept = ok(await memberUnreacts(guild, fixed.panel, member, '😀'));
    expect(kept).toMatchObject({ changed: false, message: 'Nothing changed: this panel does not let you remove roles you claimed.' });
    expect(await world.sandbox.roles(guild, member)).toEqual([roleB]);
    expect(ok(await react(world, guild, removable.panel, member, '😀', 'reaction_delete'))).toMatchObject({
      changed: false,
      message: 'Nothing changed: you did not have the roles of this choice.',
    });
  });

  it("limit_roles_to_one: a new claim releases the old one, its roles and the member's old reaction", async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { limit_roles_to_one: true, supports_remove: false }, ['😀', '🎉', '🔥']);
    const member = snowflake();
    const other = snowflake();
    ok(await memberReacts(guild, panel, member, '😀'));
    ok(await memberReacts(guild, panel, other, '😀'));
    const moved = ok(await memberReacts(guild, panel, member, '🎉'));
    expect(moved).toMatchObject({
      claimed: [entries[1].entry_id],
      released: [entries[0].entry_id],
      roles_added: entries[1].role_ids,
      roles_removed: entries[0].role_ids,
      entries_held: [entries[1].entry_id],
    });
    expect(await world.sandbox.roles(guild, member)).toEqual(entries[1].role_ids);
    expect(await reactors(panel, '😀')).toEqual([BOT, other].sort());
    expect(await reactors(panel, '🎉')).toEqual([BOT, member].sort());
    // The bot reports the removal the service made; it changes nothing.
    expect(ok(await react(world, guild, panel, member, '😀', 'reaction_delete'))).toMatchObject({ changed: false, entries_held: [entries[1].entry_id] });
  });

  it('keep_counter_at_one: the reaction is removed at once and each reaction toggles the claim; reaction_delete is ignored', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { keep_counter_at_one: true, supports_remove: true }, ['😀']);
    const member = snowflake();
    const role = entries[0].role_ids[0];
    expect(ok(await memberReacts(guild, panel, member, '😀'))).toMatchObject({ changed: true, roles_added: [role] });
    expect(await reactors(panel, '😀')).toEqual([BOT]);
    expect(ok(await react(world, guild, panel, member, '😀', 'reaction_delete'))).toMatchObject({ changed: false, entries_held: [entries[0].entry_id] });
    expect(await world.sandbox.roles(guild, member)).toEqual([role]);
    expect(ok(await memberReacts(guild, panel, member, '😀'))).toMatchObject({ changed: true, roles_removed: [role], entries_held: [] });
    expect(await world.sandbox.roles(guild, member)).toEqual([]);
    expect(await reactors(panel, '😀')).toEqual([BOT]);

    const sticky = await panelWithEntries(world, guild, { keep_counter_at_one: true, supports_remove: false }, ['🎉']);
    ok(await memberReacts(guild, sticky.panel, member, '🎉'));
    expect(ok(await memberReacts(guild, sticky.panel, member, '🎉'))).toMatchObject({ changed: false, entries_held: [sticky.entries[0].entry_id] });
    expect(await reactors(sticky.panel, '🎉')).toEqual([BOT]);
  });

  it('keep_counter_at_one with limit_roles_to_one moves the one claim between entries', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { keep_counter_at_one: true, limit_roles_to_one: true, supports_remove: true }, [
      '😀',
      '🎉',
    ]);
    const member = snowflake();
    ok(await memberReacts(guild, panel, member, '😀'));
    ok(await memberReacts(guild, panel, member, '🎉'));
    expect(await world.sandbox.roles(guild, member)).toEqual(entries[1].role_ids);
    expect(await reactors(panel, '😀')).toEqual([BOT]);
    expect(await reactors(panel, '🎉')).toEqual([BOT]);
  });

  it('delete_unrelated_emoji_reactions removes a reaction no entry uses; either way it answers the 404 of the check quirk', async () => {
    const guild = await enabledGuild(world);
    const strict = await panelWithEntries(world, guild, { delete_unrelated_emoji_reactions: true }, ['😀']);
    const lax = await panelWithEntries(world, guild, { delete_unrelated_emoji_reactions: false }, ['😀']);
    const member = snowflake();
    for (const [panel, stays] of [
      [strict.panel, false],
      [lax.panel, true],
    ] as const) {
      const res = await memberReacts(guild, panel, member, '🍕');
      expect(res.status).toBe(404);
      expect(errorOf(res)).toEqual({
        code: 404,
        name: 'Unprocessable Entity',
        message: `Unprocessable Entity! No entry of panel '${panel.panel_id}' uses the emoji '🍕'.`,
      });
      expect(await reactors(panel, '🍕')).toEqual(stays ? [member] : []);
    }
    expect(await world.sandbox.roles(guild, member)).toEqual([]);
  });

  it('matches a custom emoji by its ID', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    const entry = await addEntry(world, guild, panel.panel_id, { emoji_name: 'blob', emoji_id: '555555555555555' });
    const member = snowflake();
    expect(ok(await react(world, guild, panel, member, 'blob_renamed', 'reaction_add', '555555555555555')).claimed).toEqual([entry.entry_id]);
    expect((await react(world, guild, panel, member, 'blob', 'reaction_add', '666666666666666')).status).toBe(404);
  });

  it('answers the quirk 404 for a reaction on a button panel', async () => {
    const guild = await enabledGuild(world);
    const { panel } = await panelWithEntries(world, guild, { panel_type: 'button' }, ['😀']);
    const res = await react(world, guild, panel, snowflake(), '😀');
    expect(res.status).toBe(404);
    expect(errorOf(res).name).toBe('Unprocessable Entity');
  });
});

describe('buttons and dropdowns', () => {
  it('a button click claims, a second click releases, and the member is told through the webhook', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { panel_type: 'button', supports_remove: true }, ['😀']);
    const member = snowflake();
    const role = entries[0].role_ids[0];
    const first = await click(world, guild, panel, member, `rr:${entries[0].entry_id}`);
    expect(ok(first.res)).toMatchObject({ changed: true, roles_added: [role] });
    expect(first.answers).toHaveLength(1);
    expect(first.answers[0]).toMatchObject({ content: `You received <@&${role}>.`, flags: 64 });
    expect(await world.sandbox.roles(guild, member)).toEqual([role]);

    const second = await click(world, guild, panel, member, `rr:${entries[0].entry_id}`);
    expect(second.answers[0]?.content).toBe(`You no longer have <@&${role}>.`);
    expect(await world.sandbox.roles(guild, member)).toEqual([]);
  });

  it('a held button without supports_remove says why nothing changed; limit_roles_to_one moves the claim', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { panel_type: 'button', supports_remove: false, limit_roles_to_one: true }, ['😀', '🎉']);
    const member = snowflake();
    await click(world, guild, panel, member, `rr:${entries[0].entry_id}`);
    const again = await click(world, guild, panel, member, `rr:${entries[0].entry_id}`);
    expect(again.answers[0]?.content).toBe('Nothing changed: this panel does not let you remove roles you claimed.');
    const moved = await click(world, guild, panel, member, `rr:${entries[1].entry_id}`);
    expect(moved.answers[0]?.content).toBe(`You received <@&${entries[1].role_ids[0]}>. You no longer have <@&${entries[0].role_ids[0]}>.`);
    expect(await world.sandbox.roles(guild, member)).toEqual(entries[1].role_ids);
  });

  it('a dropdown answer is the selection the member wants: new options are claimed, deselected ones released', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { panel_type: 'dropdown', supports_remove: true }, ['😀', '🎉', '🔥']);
    const [a, b, c] = entries.map((e: { entry_id: string }) => e.entry_id);
    const role = (i: number) => entries[i].role_ids[0] as string;
    const member = snowflake();
    expect(ok((await click(world, guild, panel, member, 'rr:select', a)).res)).toMatchObject({ entry_id: a, claimed: [a] });
    expect(ok((await click(world, guild, panel, member, 'rr:select', `${a},${c}`)).res)).toMatchObject({ entry_id: null, claimed: [c], released: [] });
    expect(await world.sandbox.roles(guild, member)).toEqual([role(0), role(2)].sort());
    const swapped = await click(world, guild, panel, member, 'rr:select', b);
    expect(ok(swapped.res)).toMatchObject({ claimed: [b], released: [a, c], entries_held: [b] });
    expect(await world.sandbox.roles(guild, member)).toEqual([role(1)]);
    const cleared = await click(world, guild, panel, member, 'rr:select', null);
    expect(ok(cleared.res)).toMatchObject({ released: [b], entries_held: [] });
    expect(cleared.answers[0]?.content).toBe(`You no longer have <@&${role(1)}>.`);
    expect(await world.sandbox.roles(guild, member)).toEqual([]);
  });

  it('a dropdown without supports_remove only adds; with limit_roles_to_one one option at most', async () => {
    const guild = await enabledGuild(world);
    const adds = await panelWithEntries(world, guild, { panel_type: 'dropdown', supports_remove: false }, ['😀', '🎉']);
    const member = snowflake();
    await click(world, guild, adds.panel, member, 'rr:select', adds.entries[0].entry_id);
    const second = await click(world, guild, adds.panel, member, 'rr:select', adds.entries[1].entry_id);
    expect(ok(second.res)).toMatchObject({ released: [], entries_held: [adds.entries[0].entry_id, adds.entries[1].entry_id] });
    const none = await click(world, guild, adds.panel, member, 'rr:select', null);
    expect(none.answers[0]?.content).toBe('Nothing changed: this panel does not let you remove roles you claimed.');

    const one = await panelWithEntries(world, guild, { panel_type: 'dropdown', limit_roles_to_one: true }, ['😀', '🎉']);
    const both = await click(world, guild, one.panel, member, 'rr:select', `${one.entries[0].entry_id},${one.entries[1].entry_id}`);
    expect(both.res.status).toBe(422);
    expect(both.answers[0]?.content).toContain('Nothing changed: ');
  });

  it('answers the quirk 404 (and tells the member) for an unknown button, option or component', async () => {
    const guild = await enabledGuild(world);
    const buttons = await panelWithEntries(world, guild, { panel_type: 'button' }, ['😀']);
    const dropdown = await panelWithEntries(world, guild, { panel_type: 'dropdown' }, ['😀']);
    const emoji = await panelWithEntries(world, guild, {}, ['😀']);
    const member = snowflake();
    for (const [panel, customId, value] of [
      [buttons.panel, 'rr:unknown', null],
      [buttons.panel, 'rr:select', null],
      [dropdown.panel, 'rr:select', 'unknown'],
      [emoji.panel, `rr:${emoji.entries[0].entry_id}`, null],
    ] as const) {
      const { res, answers } = await click(world, guild, panel, member, customId, value);
      expect(res.status).toBe(404);
      expect(errorOf(res).code).toBe(404);
      expect(errorOf(res).name).toBe('Unprocessable Entity');
      expect(errorOf(res).message).toMatch(/^Unprocessable Entity! /);
      expect(answers[0]?.content).toMatch(/^Nothing changed: /);
    }
    expect(await held(guild, member)).toBe(0);
  });
});

describe('what the check refuses', () => {
  it('answers 404 NotFoundError for a message that is no panel', async () => {
    const guild = await enabledGuild(world);
    const res = await react(world, guild, { channel_id: snowflake(), message_id: snowflake() }, snowflake(), '😀');
    expect(res.status).toBe(404);
    expect(errorOf(res)).toMatchObject({ code: 404, name: 'NotFoundError' });
    expect(errorOf(res).message).toMatch(/^Not Found! Message \d+ in channel \d+ is not a reaction-role panel of guild \d+\.$/);
    const { res: component, answers } = await click(world, guild, { channel_id: snowflake(), message_id: snowflake() }, snowflake(), 'rr:x');
    expect(component.status).toBe(404);
    expect(answers[0]?.content).toContain('is not a reaction-role panel');
  });

  it('answers 400 without a valid X-Acting-User-Id, and 422 for missing conditional fields', async () => {
    const guild = await enabledGuild(world);
    const body = { guild_id: guild, channel_id: snowflake(), message_id: snowflake(), interaction_type: 'reaction_add', emoji_name: '😀' };
    const none = await world.service.call('POST', `${RR}/check`, { looseBody: body });
    expect(none.status).toBe(400);
    expect(errorOf(none).message).toBe("Bad Request! Header 'X-Acting-User-Id' is required: name the member the bot acts for by their snowflake ID.");
    expect((await world.service.call('POST', `${RR}/check`, { looseBody: body, headers: { 'X-Acting-User-Id': 'bob' } })).status).toBe(400);
    const actor = { 'X-Acting-User-Id': snowflake() };
    const noEmoji = await world.service.call('POST', `${RR}/check`, { looseBody: { ...body, emoji_name: null }, headers: actor });
    expect(noEmoji.status).toBe(422);
    expect(errorOf(noEmoji).message).toBe("Unprocessable Entity! Field 'emoji_name' is required when interaction_type is reaction_add.");
    const noToken = await world.service.call('POST', `${RR}/check`, {
      body: { ...body, interaction_type: 'component', interaction_custom_id: 'x', application_id: '1' },
      headers: actor,
    });
    expect(errorOf(noToken).message).toBe("Unprocessable Entity! Field 'interaction_id_token' is required when interaction_type is component.");
    const badType = await world.service.call('POST', `${RR}/check`, { looseBody: { ...body, interaction_type: 'reaction' }, headers: actor });
    expect(badType.status).toBe(422);
  });

  it('is internal (403 for a guild API key) and answers 409 while the module is disabled', async () => {
    const guild = await enabledGuild(world);
    const { panel } = await panelWithEntries(world, guild, {}, ['😀']);
    const key = ok(await world.service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key;
    const member = snowflake();
    const body = { guild_id: guild, channel_id: panel.channel_id, message_id: panel.message_id, interaction_type: 'reaction_add', emoji_name: '😀' };
    const res = await world.service.call('POST', `${RR}/check`, { looseBody: body, token: key.secret, headers: { 'X-Acting-User-Id': member } });
    expect(res.status).toBe(403);
    ok(await world.service.call('POST', `${RR}/disable`, { body: { guild_id: guild } }));
    const disabled = await react(world, guild, panel, member, '😀');
    expect(disabled.status).toBe(409);
    expect(errorOf(disabled).name).toBe('ModuleDisabledError');
    expect(await world.sandbox.roles(guild, member)).toEqual([]);
  });
});

describe('platform failures', () => {
  it('a role the platform refuses is a 502 naming it; no claim is recorded and no role half-granted', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild, { panel_type: 'button' });
    const [free, refused] = (await newRoles(world, guild, 2)) as [string, string];
    const entry = await addEntry(world, guild, panel.panel_id, { emoji_name: '😀', role_ids: [free, refused] });
    await world.sandbox.forbidRole(guild, refused);
    const member = snowflake();
    const { res, answers } = await click(world, guild, panel, member, `rr:${entry.entry_id}`);
    expect(res.status).toBe(502);
    expect(errorOf(res)).toMatchObject({ code: 502, name: 'PlatformApiInteractionError' });
    expect(errorOf(res).message).toContain(`grant role ${refused} to member ${member}`);
    expect(errorOf(res).message).toContain('403 Missing Permissions');
    expect(answers[0]?.content).toContain(`grant role ${refused}`);
    expect(await world.sandbox.roles(guild, member)).toEqual([]);
    expect(await held(guild, member)).toBe(0);

    await world.sandbox.allowRole(guild, refused);
    ok((await click(world, guild, panel, member, `rr:${entry.entry_id}`)).res);
    expect(await world.sandbox.roles(guild, member)).toEqual([free, refused].sort());
  });

  it('a refused removal while moving a one-only claim keeps the old claim and its roles', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { limit_roles_to_one: true }, ['😀', '🎉']);
    const member = snowflake();
    ok(await memberReacts(guild, panel, member, '😀'));
    await world.sandbox.forbidRole(guild, entries[0].role_ids[0]);
    const res = await memberReacts(guild, panel, member, '🎉');
    expect(res.status).toBe(502);
    expect(errorOf(res).message).toContain(`take role ${entries[0].role_ids[0]} from member ${member}`);
    expect(await world.sandbox.roles(guild, member)).toEqual(entries[0].role_ids);
    expect(await held(guild, member)).toBe(1);
  });

  it('waits out one 429 on a role and grants it', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, {}, ['😀']);
    const member = snowflake();
    await world.sandbox.fault({ method: 'PUT', path: `/members/${member}/roles/`, status: 429, retry_after: 0.05 });
    ok(await memberReacts(guild, panel, member, '😀'));
    expect(await world.sandbox.roles(guild, member)).toEqual(entries[0].role_ids);
    const log = await world.sandbox.requests();
    expect(log.filter((r) => r.path.includes(`/members/${member}/roles/`)).map((r) => r.status)).toEqual([429, 204]);
  });

  it('answers 502 after the platform keeps failing with 5xx, with nothing recorded', async () => {
    const guild = await enabledGuild(world);
    const { panel } = await panelWithEntries(world, guild, {}, ['😀']);
    const member = snowflake();
    await world.sandbox.fault({ method: 'PUT', path: `/members/${member}/roles/`, status: 503, times: 3 });
    const res = await react(world, guild, panel, member, '😀');
    expect(res.status).toBe(502);
    expect(errorOf(res).message).toContain('503');
    expect(await held(guild, member)).toBe(0);
  });
});

describe('several options together', () => {
  it('limit_roles_to_one + supports_remove + delete_unrelated on one emoji panel', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(
      world,
      guild,
      { limit_roles_to_one: true, supports_remove: true, delete_unrelated_emoji_reactions: true },
      EMOJIS.slice(0, 3),
    );
    const member = snowflake();
    ok(await memberReacts(guild, panel, member, EMOJIS[0]!));
    ok(await memberReacts(guild, panel, member, EMOJIS[2]!));
    expect((await memberReacts(guild, panel, member, '🥝')).status).toBe(404);
    expect(await reactors(panel, '🥝')).toEqual([]);
    expect(await reactors(panel, EMOJIS[0]!)).toEqual([BOT]);
    expect(await world.sandbox.roles(guild, member)).toEqual(entries[2].role_ids);
    ok(await memberUnreacts(guild, panel, member, EMOJIS[2]!));
    expect(await world.sandbox.roles(guild, member)).toEqual([]);
    expect(await held(guild, member)).toBe(0);
  });
});

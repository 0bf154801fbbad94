import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, snowflake } from '#test/helpers/local.js';
import { EMOJIS, RR, type World, addEntry, click, createPanel, enabledGuild, ok, panelWithEntries, react, startWorld, newRoles } from './fixture.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.service.stop());

const ENTRY_FIELDS = ['id', 'guild_id', 'panel_id', 'entry_id', 'role_ids', 'emoji_name', 'emoji_id', 'text', 'description'].sort();

const post = async (guild: string, panelId: string, fields: Record<string, unknown>) =>
  world.service.call('POST', `${RR}/panel/${panelId}/entries`, {
    looseBody: { guild_id: guild, role_ids: [await world.sandbox.roleIn(guild)], emoji_id: null, text: null, description: null, ...fields },
  });
const list = (guild: string, panelId: string) => world.service.call('GET', `${RR}/panel/${panelId}/entries`, { query: { guild_id: guild } });
const get = (guild: string, panelId: string, entryId: string) =>
  world.service.call('GET', `${RR}/panel/${panelId}/entries/${entryId}`, { query: { guild_id: guild } });
const edit = (guild: string, panelId: string, entryId: string, fields: Record<string, unknown>) =>
  world.service.call('PUT', `${RR}/panel/${panelId}/entries/${entryId}`, { looseBody: { guild_id: guild, ...fields } });
const remove = (guild: string, panelId: string, entryId: string) =>
  world.service.call('DELETE', `${RR}/panel/${panelId}/entries/${entryId}`, { body: { guild_id: guild } });
const messageOf = (panel: { channel_id: string; message_id: string }) => world.sandbox.message(panel.channel_id, panel.message_id);

describe('adding entries', () => {
  it("adds the service's reaction on an emoji panel and answers exactly the entry record", async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    const roles = await newRoles(world, guild, 2);
    const entry = ok(await post(guild, panel.panel_id, { role_ids: roles, emoji_name: '🎉', text: 'Party', description: 'for party people' })).entry;
    expect(Object.keys(entry).sort()).toEqual(ENTRY_FIELDS);
    expect(entry).toMatchObject({
      guild_id: guild,
      panel_id: panel.panel_id,
      role_ids: roles,
      emoji_name: '🎉',
      emoji_id: null,
      text: 'Party',
      description: 'for party people',
    });
    expect(Number.isSafeInteger(entry.id) && entry.id > 0).toBe(true);
    expect((await messageOf(panel))?.reactions).toEqual([expect.objectContaining({ count: 1, me: true, emoji: { id: null, name: '🎉' } })]);

    const custom = ok(await post(guild, panel.panel_id, { emoji_name: 'party_parrot', emoji_id: '123456789012345678' })).entry;
    expect(custom).toMatchObject({ emoji_name: 'party_parrot', emoji_id: '123456789012345678' });
    expect((await messageOf(panel))?.reactions?.[1]?.emoji).toEqual({ id: '123456789012345678', name: 'party_parrot' });

    expect(ok(await list(guild, panel.panel_id)).entries).toEqual([entry, custom]);
    expect(ok(await get(guild, panel.panel_id, custom.entry_id)).entry).toEqual(custom);
  });

  it('renders buttons in rows of five and one dropdown whose option values are entry IDs', async () => {
    const guild = await enabledGuild(world);
    const { panel: buttons, entries } = await panelWithEntries(world, guild, { panel_type: 'button' }, EMOJIS.slice(0, 11), false);
    const rows = (await messageOf(buttons))?.components ?? [];
    expect(rows.map((r) => r.components.length)).toEqual([5, 5, 1]);
    expect(rows[0]?.components[0]).toEqual({ type: 2, style: 2, custom_id: `rr:${entries[0].entry_id}`, emoji: { name: EMOJIS[0] } });
    expect((await messageOf(buttons))?.content).toBe('Pick your roles');

    const dropdown = await createPanel(world, guild, { panel_type: 'dropdown' });
    const a = ok(await post(guild, dropdown.panel_id, { emoji_name: '🍕', text: 'Pizza', description: 'cheesy' })).entry;
    const b = ok(await post(guild, dropdown.panel_id, { emoji_name: 'blob', emoji_id: '42424242424242', text: 'Blob' })).entry;
    const select = (await messageOf(dropdown))?.components?.[0]?.components[0];
    expect(select).toEqual({
      type: 3,
      custom_id: 'rr:select',
      placeholder: 'Choose your roles',
      min_values: 0,
      max_values: 2,
      options: [
        { label: 'Pizza', value: a.entry_id, description: 'cheesy', emoji: { name: '🍕' } },
        { label: 'Blob', value: b.entry_id, emoji: { id: '42424242424242', name: 'blob' } },
      ],
    });
  });

  it('answers 422 for a duplicate emoji, also written with a variation selector, and for a custom emoji ID used twice', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    const first = ok(await post(guild, panel.panel_id, { emoji_name: '❤' })).entry;
    const again = await post(guild, panel.panel_id, { emoji_name: '❤️' });
    expect(again.status).toBe(422);
    expect(errorOf(again).message).toBe(
      `Unprocessable Entity! Field 'emoji_name': entry '${first.entry_id}' of panel '${panel.panel_id}' already uses this emoji; each emoji can be used once per panel.`,
    );
    ok(await post(guild, panel.panel_id, { emoji_name: 'cat', emoji_id: '777777777777' }));
    expect((await post(guild, panel.panel_id, { emoji_name: 'renamed_cat', emoji_id: '777777777777' })).status).toBe(422);
    const buttons = await createPanel(world, guild, { panel_type: 'button' });
    ok(await post(guild, buttons.panel_id, { emoji_name: '🔥' }));
    expect((await post(guild, buttons.panel_id, { emoji_name: '🔥', text: 'other' })).status).toBe(422);
    expect(ok(await list(guild, panel.panel_id)).entries).toHaveLength(2);
  });

  it('answers 422 past the platform limits: 20 emoji entries, 25 buttons or options', async () => {
    const guild = await enabledGuild(world);
    const { panel: emoji } = await panelWithEntries(world, guild, {}, EMOJIS.slice(0, 20));
    const over = await post(guild, emoji.panel_id, { emoji_name: EMOJIS[20] });
    expect(over.status).toBe(422);
    expect(errorOf(over).message).toBe(`Unprocessable Entity! A emoji panel holds at most 20 entries; panel '${emoji.panel_id}' is full.`);
    expect((await messageOf(emoji))?.reactions).toHaveLength(20);

    const { panel: dropdown } = await panelWithEntries(world, guild, { panel_type: 'dropdown' }, EMOJIS.slice(0, 25));
    const overDropdown = await post(guild, dropdown.panel_id, { emoji_name: '🥝', text: 'one too many' });
    expect(overDropdown.status).toBe(422);
    expect(errorOf(overDropdown).message).toContain('A dropdown panel holds at most 25 entries');
  });

  it('answers 422 for text rules: dropdown needs text, button labels up to 80, dropdown texts up to 100', async () => {
    const guild = await enabledGuild(world);
    const dropdown = await createPanel(world, guild, { panel_type: 'dropdown' });
    const noText = await post(guild, dropdown.panel_id, { emoji_name: '😀', text: null });
    expect(noText.status).toBe(422);
    expect(errorOf(noText).message).toBe("Unprocessable Entity! The entry needs 'text': it is the option's label on a dropdown panel.");
    ok(await post(guild, dropdown.panel_id, { emoji_name: '😀', text: 'x'.repeat(100), description: 'd'.repeat(100) }));
    expect(errorOf(await post(guild, dropdown.panel_id, { emoji_name: '🎉', text: 'x'.repeat(101) })).message).toBe(
      "Unprocessable Entity! Field 'text' must be at most 100 characters.",
    );
    expect((await post(guild, dropdown.panel_id, { emoji_name: '🎉', text: 'ok', description: 'd'.repeat(101) })).status).toBe(422);

    const buttons = await createPanel(world, guild, { panel_type: 'button' });
    ok(await post(guild, buttons.panel_id, { emoji_name: '😀', text: 'b'.repeat(80) }));
    const long = await post(guild, buttons.panel_id, { emoji_name: '🎉', text: 'b'.repeat(81) });
    expect(long.status).toBe(422);
    expect(errorOf(long).message).toContain("'text' must be at most 80 characters on a button panel (it has 81)");
  });

  it.each([
    [{ role_ids: [] }, 422, "Field 'role_ids' must not be empty."],
    [{ role_ids: ['1', '1'] }, 422, "Field 'role_ids' must not name a role twice."],
    [{ role_ids: ['role'] }, 400, "Field 'role_ids[0]' must be a snowflake ID"],
    [{ emoji_name: 'smile' }, 422, "Field 'emoji_name' must be one unicode emoji when emoji_id is null"],
    [{ emoji_name: 'no spaces', emoji_id: '123' }, 422, "Field 'emoji_name' must be the custom emoji's name"],
    [{ emoji_name: undefined }, 400, "Field 'emoji_name' is required"],
    [{ text: '' }, 422, "Field 'text' must not be empty (send null for none)."],
  ])('checks the entry body: %j', async (fields, status, message) => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    const res = await post(guild, panel.panel_id, { emoji_name: '😀', ...fields });
    expect(res.status).toBe(status);
    expect(errorOf(res).message).toContain(message);
  });

  it('answers 404 for an unknown panel and 409 while disabled', async () => {
    const guild = await enabledGuild(world);
    expect(errorOf(await post(guild, 'missing', { emoji_name: '😀' })).name).toBe('NotFoundError');
    const panel = await createPanel(world, guild);
    ok(await world.service.call('POST', `${RR}/disable`, { body: { guild_id: guild } }));
    expect((await post(guild, panel.panel_id, { emoji_name: '😀' })).status).toBe(409);
    expect((await list(guild, panel.panel_id)).status).toBe(409);
  });

  it('stores nothing when the platform refuses the reaction or the message edit', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    await world.sandbox.fault({ method: 'PUT', path: '/reactions/.*/@me$', status: 403, code: 50013, message: 'Missing Permissions' });
    const res = await post(guild, panel.panel_id, { emoji_name: '😀' });
    expect(res.status).toBe(502);
    expect(errorOf(res).message).toContain('403 Missing Permissions');
    expect(ok(await list(guild, panel.panel_id)).entries).toEqual([]);

    const buttons = await createPanel(world, guild, { panel_type: 'button' });
    await world.sandbox.fault({ method: 'PATCH', path: `/messages/${buttons.message_id}$`, status: 500, times: 3 });
    expect((await post(guild, buttons.panel_id, { emoji_name: '😀' })).status).toBe(502);
    expect(ok(await list(guild, buttons.panel_id)).entries).toEqual([]);
    expect((await messageOf(buttons))?.components).toEqual([]);
    // The same emoji can be added once the platform is back.
    ok(await post(guild, buttons.panel_id, { emoji_name: '😀' }));
  });
});

describe('editing entries', () => {
  it('replaces roles, text and description and re-renders the panel', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { panel_type: 'dropdown' }, EMOJIS.slice(0, 2));
    const roles = await newRoles(world, guild, 1);
    const edited = ok(
      await edit(guild, panel.panel_id, entries[1].entry_id, { role_ids: roles, text: 'Renamed', description: 'now with a description' }),
    ).entry;
    expect(edited).toEqual({ ...entries[1], role_ids: roles, text: 'Renamed', description: 'now with a description' });
    expect(ok(await get(guild, panel.panel_id, entries[1].entry_id)).entry).toEqual(edited);
    const select = (await messageOf(panel))?.components?.[0]?.components[0];
    expect(select?.type === 3 && select.options?.[1]).toEqual({
      label: 'Renamed',
      value: entries[1].entry_id,
      description: 'now with a description',
      emoji: { name: EMOJIS[1] },
    });
  });

  it('checks the same rules and answers 404 for an unknown entry', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { panel_type: 'dropdown' }, EMOJIS.slice(0, 1));
    const noText = await edit(guild, panel.panel_id, entries[0].entry_id, { role_ids: [await world.sandbox.roleIn(guild)], text: null });
    expect(noText.status).toBe(422);
    expect((await edit(guild, panel.panel_id, entries[0].entry_id, { role_ids: [] })).status).toBe(422);
    expect((await edit(guild, panel.panel_id, entries[0].entry_id, { text: 'missing roles' })).status).toBe(400);
    const missing = await edit(guild, panel.panel_id, 'nope', { role_ids: [await world.sandbox.roleIn(guild)], text: 'x' });
    expect(errorOf(missing)).toEqual({ code: 404, name: 'NotFoundError', message: `Not Found! Reaction-role panel '${panel.panel_id}' has no entry 'nope'.` });
    expect(ok(await list(guild, panel.panel_id)).entries).toEqual(entries);
  });

  it('changes nothing when the platform refuses the re-render', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { panel_type: 'button' }, EMOJIS.slice(0, 1));
    await world.sandbox.fault({ method: 'PATCH', path: `/messages/${panel.message_id}$`, status: 500, times: 3 });
    expect((await edit(guild, panel.panel_id, entries[0].entry_id, { role_ids: [await world.sandbox.roleIn(guild)], text: 'new label' })).status).toBe(502);
    expect(ok(await get(guild, panel.panel_id, entries[0].entry_id)).entry).toEqual(entries[0]);
    expect((await messageOf(panel))?.components?.[0]?.components[0]).toMatchObject({ label: 'Choice 1' });
  });
});

describe('deleting entries', () => {
  it("removes the service's reaction and answers the entry; members keep their roles by default", async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, {}, EMOJIS.slice(0, 2));
    const member = snowflake();
    ok(await react(world, guild, panel, member, EMOJIS[0]!));
    expect(ok(await remove(guild, panel.panel_id, entries[0].entry_id)).entry).toEqual(entries[0]);
    expect((await messageOf(panel))?.reactions?.map((r) => r.emoji.name)).toEqual([EMOJIS[1]]);
    expect(await world.sandbox.roles(guild, member)).toEqual(entries[0].role_ids);
    expect(ok(await list(guild, panel.panel_id)).entries).toEqual([entries[1]]);
    expect((await get(guild, panel.panel_id, entries[0].entry_id)).status).toBe(404);
    expect((await remove(guild, panel.panel_id, entries[0].entry_id)).status).toBe(404);
    // The claim forgot the entry: the member holds nothing on the panel any more.
    const counted = ok(await world.service.call('GET', `${RR}/privacy/get-user-entries`, { query: { guild_id: guild, privacy_member_id: member } }));
    expect(counted.id).toBe(0);
  });

  it('takes its roles from every member holding it when the panel says so, keeping roles other entries give', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild, { panel_type: 'button', remove_roles_from_users_on_entry_delete: true });
    const [shared, own] = (await newRoles(world, guild, 2)) as [string, string];
    const doomed = await addEntry(world, guild, panel.panel_id, { emoji_name: '😀', role_ids: [shared, own] });
    const kept = await addEntry(world, guild, panel.panel_id, { emoji_name: '🎉', role_ids: [shared] });
    const [a, b, c] = [snowflake(), snowflake(), snowflake()];
    for (const member of [a, b]) ok((await click(world, guild, panel, member, `rr:${doomed.entry_id}`)).res);
    ok((await click(world, guild, panel, b, `rr:${kept.entry_id}`)).res);
    ok((await click(world, guild, panel, c, `rr:${kept.entry_id}`)).res);

    ok(await remove(guild, panel.panel_id, doomed.entry_id));
    expect(await world.sandbox.roles(guild, a)).toEqual([]);
    expect(await world.sandbox.roles(guild, b)).toEqual([shared]);
    expect(await world.sandbox.roles(guild, c)).toEqual([shared]);
    const rows = (await messageOf(panel))?.components ?? [];
    expect(rows.flatMap((r) => r.components.map((x) => (x.type === 2 ? x.custom_id : null)))).toEqual([`rr:${kept.entry_id}`]);
  });

  it('changes nothing when the platform refuses to take a role (502 naming the role)', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild, { remove_roles_from_users_on_entry_delete: true });
    const [r1, r2] = (await newRoles(world, guild, 2)) as [string, string];
    const entry = await addEntry(world, guild, panel.panel_id, { emoji_name: '😀', role_ids: [r1, r2] });
    const member = snowflake();
    ok(await react(world, guild, panel, member, '😀'));
    await world.sandbox.forbidRole(guild, r2);
    const res = await remove(guild, panel.panel_id, entry.entry_id);
    expect(res.status).toBe(502);
    expect(errorOf(res).message).toContain(`take role ${r2} from member ${member}`);
    expect(await world.sandbox.roles(guild, member)).toEqual([r1, r2].sort());
    expect(ok(await list(guild, panel.panel_id)).entries).toEqual([entry]);
    expect((await messageOf(panel))?.reactions).toHaveLength(1);
    await world.sandbox.allowRole(guild, r2);
    ok(await remove(guild, panel.panel_id, entry.entry_id));
    expect(await world.sandbox.roles(guild, member)).toEqual([]);
  });

  it('keeps the entry and gives roles back when the message cannot be updated', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild, { remove_roles_from_users_on_entry_delete: true });
    const entries = [await addEntry(world, guild, panel.panel_id, { emoji_name: '😀' }), await addEntry(world, guild, panel.panel_id, { emoji_name: '🎉' })];
    const member = snowflake();
    ok(await react(world, guild, panel, member, '🎉'));
    await world.sandbox.fault({ method: 'DELETE', path: '/reactions/.*/@me$', status: 500, times: 3 });
    expect((await remove(guild, panel.panel_id, entries[1].entry_id)).status).toBe(502);
    expect(ok(await list(guild, panel.panel_id)).entries).toEqual(entries);
    expect(await world.sandbox.roles(guild, member)).toEqual(entries[1].role_ids);
  });
});

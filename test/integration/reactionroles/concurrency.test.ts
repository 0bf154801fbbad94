import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getClaim } from '#functions/reactionroles/store.js';
import { snowflake } from '#test/helpers/local.js';
import { EMOJIS, RR, type World, addEntry, click, createPanel, enabledGuild, ok, panelWithEntries, react, startWorld, newRoles } from './fixture.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.service.stop());

type Entry = { entry_id: string; role_ids: string[] };

/** The entries a member holds as stored, and their roles on the sandbox. */
async function holding(guild: string, panelId: string, member: string) {
  const claim = await getClaim(guild, panelId, member);
  return { entries: claim?.entry_ids ?? [], roles: await world.sandbox.roles(guild, member) };
}

const rolesOf = (entries: Entry[], ids: string[]) =>
  entries
    .filter((e) => ids.includes(e.entry_id))
    .flatMap((e) => e.role_ids)
    .sort();

describe('one member, many events at once', () => {
  it('ten reactions at once on a one-only panel end with exactly one entry held and the roles matching it', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { limit_roles_to_one: true, supports_remove: true }, EMOJIS.slice(0, 10));
    const member = snowflake();
    for (const emoji of EMOJIS.slice(0, 10)) await world.sandbox.react(panel.channel_id, panel.message_id, emoji, member);
    const results = await Promise.all(EMOJIS.slice(0, 10).map((emoji) => react(world, guild, panel, member, emoji)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const state = await holding(guild, panel.panel_id, member);
    expect(state.entries).toHaveLength(1);
    expect(state.roles).toEqual(rolesOf(entries, state.entries));
  });

  it('ten events at once on a one-only panel whose entries share a role keep that role exactly when an entry is held', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild, { limit_roles_to_one: true, supports_remove: true });
    const [common] = (await newRoles(world, guild, 1)) as [string];
    const entries: Entry[] = [];
    for (const emoji of EMOJIS.slice(0, 10))
      entries.push(await addEntry(world, guild, panel.panel_id, { emoji_name: emoji, role_ids: [common, await world.sandbox.roleIn(guild)] }));
    const member = snowflake();
    const events = EMOJIS.slice(0, 10).flatMap((emoji, i) => [
      react(world, guild, panel, member, emoji),
      ...(i % 3 === 0 ? [react(world, guild, panel, member, emoji, 'reaction_delete')] : []),
    ]);
    expect((await Promise.all(events)).every((r) => r.status === 200)).toBe(true);
    const state = await holding(guild, panel.panel_id, member);
    expect(state.entries.length).toBeLessThanOrEqual(1);
    expect(state.roles).toEqual([...new Set(rolesOf(entries, state.entries))].sort());
  });

  it('ten button clicks at once on a one-only panel end the same way', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(
      world,
      guild,
      { panel_type: 'button', limit_roles_to_one: true, supports_remove: false },
      EMOJIS.slice(0, 10),
    );
    const member = snowflake();
    const results = await Promise.all(entries.map((e: Entry) => click(world, guild, panel, member, `rr:${e.entry_id}`)));
    expect(results.map((r) => r.res.status)).toEqual(Array(10).fill(200));
    expect(results.every((r) => r.answers.length === 1)).toBe(true);
    const state = await holding(guild, panel.panel_id, member);
    expect(state.entries).toHaveLength(1);
    expect(state.roles).toEqual(rolesOf(entries, state.entries));
  });

  it('ten toggles of one entry at once (keep_counter_at_one) each flip the claim once: ten flips leave nothing held', async () => {
    const guild = await enabledGuild(world);
    const { panel } = await panelWithEntries(world, guild, { keep_counter_at_one: true, supports_remove: true }, ['😀']);
    const member = snowflake();
    const results = await Promise.all(Array.from({ length: 10 }, () => react(world, guild, panel, member, '😀')));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results.filter((r) => r.body.data.claimed.length === 1)).toHaveLength(5);
    expect(await holding(guild, panel.panel_id, member)).toEqual({ entries: [], roles: [] });
  });

  it('reactions added and removed at once on a free panel end with roles matching the claim', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { supports_remove: true }, EMOJIS.slice(0, 6));
    const member = snowflake();
    const events = EMOJIS.slice(0, 6).flatMap((emoji, i) =>
      i % 2
        ? [react(world, guild, panel, member, emoji), react(world, guild, panel, member, emoji, 'reaction_delete')]
        : [react(world, guild, panel, member, emoji)],
    );
    expect((await Promise.all(events)).every((r) => r.status === 200)).toBe(true);
    const state = await holding(guild, panel.panel_id, member);
    for (const i of [0, 2, 4]) expect(state.entries).toContain(entries[i].entry_id);
    expect(state.roles).toEqual(rolesOf(entries, state.entries));
  });
});

describe('a role change that lands after a competing claim', () => {
  it('is put right: the losing event aligns the roles it touched with the stored claim', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild, { limit_roles_to_one: true, supports_remove: true });
    const [common] = (await newRoles(world, guild, 1)) as [string];
    const a = await addEntry(world, guild, panel.panel_id, { emoji_name: '😀', role_ids: [common, await world.sandbox.roleIn(guild)] });
    const b = await addEntry(world, guild, panel.panel_id, { emoji_name: '🎉', role_ids: [common, await world.sandbox.roleIn(guild)] });
    const member = snowflake();
    ok(await react(world, guild, panel, member, '😀'));

    // The un-react's removal of the shared role is slow: the platform fails it once after a pause, the client retries.
    await world.sandbox.fault({ method: 'DELETE', path: `/members/${member}/roles/${common}$`, status: 500, delay_ms: 200 });
    const unreact = react(world, guild, panel, member, '😀', 'reaction_delete');
    while ((await world.sandbox.state()).faults.length > 0) await new Promise((resolve) => setImmediate(resolve));
    // Meanwhile the member picks the other entry, which also grants the shared role.
    expect(ok(await react(world, guild, panel, member, '🎉')).entries_held).toEqual([b.entry_id]);
    expect((await unreact).status).toBe(200);

    expect(await holding(guild, panel.panel_id, member)).toEqual({ entries: [b.entry_id], roles: [...b.role_ids].sort() });
    expect(a.role_ids).toContain(common);
  });
});

describe('many members at once', () => {
  it('forty members reacting at once each get exactly their entry', async () => {
    const guild = await enabledGuild(world);
    const { panel, entries } = await panelWithEntries(world, guild, { limit_roles_to_one: true }, EMOJIS.slice(0, 4));
    const members = Array.from({ length: 40 }, () => snowflake());
    const results = await Promise.all(members.map((m, i) => react(world, guild, panel, m, EMOJIS[i % 4]!)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    for (const [i, member] of members.entries()) {
      expect(await holding(guild, panel.panel_id, member)).toEqual({ entries: [entries[i % 4].entry_id], roles: [...entries[i % 4].role_ids] });
    }
  });
});

describe('entries changed at once', () => {
  it('25 emoji entries added at once: exactly 20 fit, and the message carries exactly their reactions', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    const roles = await newRoles(world, guild, EMOJIS.length);
    const adds = await Promise.all(
      EMOJIS.map((emoji, i) =>
        world.service.call('POST', `${RR}/panel/${panel.panel_id}/entries`, {
          looseBody: { guild_id: guild, role_ids: [roles[i]], emoji_name: emoji, emoji_id: null, text: null, description: null },
        }),
      ),
    );
    expect(adds.filter((r) => r.status === 200)).toHaveLength(20);
    expect(adds.filter((r) => r.status === 422)).toHaveLength(5);
    const stored = ok(await world.service.call('GET', `${RR}/panel/${panel.panel_id}/entries`, { query: { guild_id: guild } })).entries;
    expect(stored).toHaveLength(20);
    const message = await world.sandbox.message(panel.channel_id, panel.message_id);
    expect(message?.reactions?.map((r) => r.emoji.name).sort()).toEqual(stored.map((e: { emoji_name: string }) => e.emoji_name).sort());
  });

  it('the same emoji added five times at once is stored once', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild);
    const roles = await newRoles(world, guild, 5);
    const adds = await Promise.all(
      roles.map((role) =>
        world.service.call('POST', `${RR}/panel/${panel.panel_id}/entries`, { body: { guild_id: guild, role_ids: [role], emoji_name: '🎉', emoji_id: null } }),
      ),
    );
    expect(adds.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422]);
  });

  it('buttons added at once all end up on the message, in the stored order', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild, { panel_type: 'button' });
    const roles = await newRoles(world, guild, 12);
    await Promise.all(
      EMOJIS.slice(0, 12).map((emoji, i) =>
        world.service.call('POST', `${RR}/panel/${panel.panel_id}/entries`, {
          looseBody: { guild_id: guild, role_ids: [roles[i]], emoji_name: emoji, text: emoji },
        }),
      ),
    );
    const stored = ok(await world.service.call('GET', `${RR}/panel/${panel.panel_id}/entries`, { query: { guild_id: guild } })).entries;
    expect(stored).toHaveLength(12);
    const shown = (await world.sandbox.message(panel.channel_id, panel.message_id))?.components?.flatMap((row) =>
      row.components.map((c) => (c.type === 2 ? c.custom_id : '')),
    );
    expect(shown).toEqual(stored.map((e: { entry_id: string }) => `rr:${e.entry_id}`));
  });

  it('edits of what the message shows and of what it does not, at once, end with the message showing the stored entries', async () => {
    const guild = await enabledGuild(world);
    const panel = await createPanel(world, guild, { panel_type: 'button' });
    const ids: string[] = [];
    for (const emoji of EMOJIS.slice(0, 4)) ids.push((await addEntry(world, guild, panel.panel_id, { emoji_name: emoji, text: emoji })).entry_id);
    const fresh = await newRoles(world, guild, ids.length * 3);
    const edit = (entryId: string, fields: Record<string, unknown>) =>
      world.service.call('PUT', `${RR}/panel/${panel.panel_id}/entries/${entryId}`, { looseBody: { guild_id: guild, role_ids: [fresh.pop()], ...fields } });
    // Three edits of each entry at once, each giving new roles and the same new label: the first to land changes the message,
    // the others change only roles, which it does not show.
    const edits = await Promise.all(ids.flatMap((id, i) => Array.from({ length: 3 }, () => edit(id, { text: `label ${i}` }))));
    expect(edits.map((r) => r.status)).toEqual(edits.map(() => 200));
    const stored = ok(await world.service.call('GET', `${RR}/panel/${panel.panel_id}/entries`, { query: { guild_id: guild } })).entries as {
      text: string | null;
    }[];
    const labels = (await world.sandbox.message(panel.channel_id, panel.message_id))?.components?.flatMap((row) =>
      row.components.map((c) => (c.type === 2 ? c.label : '')),
    );
    expect(labels).toEqual(stored.map((e) => e.text));
  });
});

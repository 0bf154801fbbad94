/**
 * The module delete of a guild with many claims (behaviour §15): it answers
 * at once with the panels and entries, the claims refer to no panel from
 * then on (privacy counts none) and go behind the answer in bounded runs,
 * while claims of a panel made meanwhile stay.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claimSweep } from '#functions/reactionroles/cleanup.js';
import { claimItem, listModuleItems } from '#functions/reactionroles/store.js';
import { snowflake } from '#test/helpers/local.js';
import { putAll } from '#test/helpers/seed.js';
import { RR, type World, enabledGuild, ok, panelWithEntries, startWorld } from './fixture.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.service.stop());
afterEach(() => {
  delete process.env.REACTIONROLES_SWEEP_PAGES;
});

/** Stores a claim of the panel's first entry for each member, as clicks would have. */
async function seedClaims(guild: string, panel: { panel: { panel_id: string }; entries: { entry_id: string }[] }, members: string[]) {
  await putAll(
    members.map((memberId) =>
      claimItem({ guild_id: guild, panel_id: panel.panel.panel_id, member_id: memberId, entry_ids: [panel.entries[0]!.entry_id], version: 'seeded' }),
    ),
  );
}

const privacyCount = async (guild: string, member: string) =>
  ok(await world.service.call('GET', `${RR}/privacy/get-user-entries`, { query: { guild_id: guild, privacy_member_id: member } })).id as number;

const claimsByPanel = async (guild: string) => {
  const counts: Record<string, number> = {};
  for (const claim of (await listModuleItems(guild)).claims) counts[claim.panel_id] = (counts[claim.panel_id] ?? 0) + 1;
  return counts;
};

describe('the module delete of many claims', { timeout: 90_000 }, () => {
  it('answers at once and removes the claims behind the answer; a panel made meanwhile keeps its claims', async () => {
    process.env.REACTIONROLES_SWEEP_PAGES = '1';
    const guild = await enabledGuild(world);
    const old = await panelWithEntries(world, guild, {}, ['😀']);
    const members = Array.from({ length: 5000 }, () => snowflake());
    await seedClaims(guild, old, members);
    expect(await privacyCount(guild, members[0]!)).toBe(1);

    const removed = ok(await world.service.call('DELETE', `${RR}/delete`, { body: { guild_id: guild } }));
    expect(removed.panels.map((p: { panel_id: string }) => p.panel_id)).toEqual([old.panel.panel_id]);
    // Answered before the claims are gone; they refer to nothing from the answer on.
    expect((await claimsByPanel(guild))[old.panel.panel_id]).toBeGreaterThan(1000);
    expect(await privacyCount(guild, members[0]!)).toBe(0);

    ok(await world.service.call('POST', `${RR}/enable`, { body: { guild_id: guild } }));
    const fresh = await panelWithEntries(world, guild, {}, ['🎉']);
    await seedClaims(guild, fresh, members.slice(0, 10));

    const places = new Set<string>();
    await expect
      .poll(
        async () => {
          const pending = await claimSweep.get(guild);
          if (pending?.after) places.add(pending.after);
          return pending;
        },
        { timeout: 60_000, interval: 25 },
      )
      .toBeNull();
    // One page a run: the removal went on over several runs, from a stored place.
    expect(places.size).toBeGreaterThan(1);
    expect(await claimsByPanel(guild)).toEqual({ [fresh.panel.panel_id]: 10 });
    expect(await privacyCount(guild, members[0]!)).toBe(1);
  });
});

/**
 * Deletes of a guild with many timed-role grants (behaviour §15): the
 * settings delete and a timed role's delete answer at once, the grants of
 * the timed roles they removed own nothing from then on (privacy counts
 * none), and go behind the answer in bounded runs, while grants of timed
 * roles made meanwhile, or of other timed roles, stay.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GrantEntity } from '#functions/welcoming/keys.js';
import { grantSweep } from '#functions/welcoming/grants.js';
import { guildKey } from '#shared/modules/store.js';
import { snowflake } from '#test/helpers/local.js';
import { putAll } from '#test/helpers/seed.js';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { addTimedRole, eventually, ok, startWorld, welcomingGuild } from './helpers.js';

const world = startWorld();
afterEach(() => {
  delete process.env.WELCOMING_SWEEP_PAGES;
});

/** Stores a granted grant of the timed role for each member, as the catch-up would have left it. */
async function seedGrants(guild: string, timedRole: { timedrole_id: string; role_id: string }, members: string[]) {
  const now = Date.now();
  await putAll(
    members.map((memberId) =>
      GrantEntity.item(
        { guildId: guild, memberId, timedRoleId: timedRole.timedrole_id },
        { member_id: memberId, timedrole_id: timedRole.timedrole_id, role_id: timedRole.role_id, due_at: now, granted_at: now },
      ),
    ),
  );
}

/** The guild's stored grants, by timed role ID. */
async function grantsByTimedRole(guild: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': guildKey(guild), ':prefix': GrantEntity.prefix },
        ProjectionExpression: 'timedrole_id',
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) counts.set(String(item.timedrole_id), (counts.get(String(item.timedrole_id)) ?? 0) + 1);
    start = out.LastEvaluatedKey;
  } while (start);
  return counts;
}

const privacyCount = async (guild: string, member: string) =>
  ok(await world.call('GET', '/privacy/get-user-entries', { query: { guild_id: guild, privacy_member_id: member } })).id as number;

/** Waits until the guild's removal is done; answers the distinct places it stood at. */
async function watchSweep(guild: string): Promise<Set<string>> {
  const places = new Set<string>();
  await eventually(
    async () => {
      const pending = await grantSweep.get(guild);
      if (pending?.after) places.add(pending.after);
      return pending === null;
    },
    `the grant removal of guild ${guild}`,
    60_000,
  );
  return places;
}

const members = (n: number) => Array.from({ length: n }, () => snowflake());

describe('deletes of many timed-role grants', { timeout: 90_000 }, () => {
  it('the settings delete answers at once and removes the grants behind the answer; a timed role made meanwhile keeps its grants', async () => {
    process.env.WELCOMING_SWEEP_PAGES = '1';
    const guild = await welcomingGuild(world, { timedroles_enabled: true });
    const old = await addTimedRole(world, guild, snowflake(), 7200);
    const seeded = members(5000);
    await seedGrants(guild, old, seeded);
    expect(await privacyCount(guild, seeded[0]!)).toBe(1);

    const removed = ok(await world.call('DELETE', '/settings', { body: { guild_id: guild } }));
    expect(removed.timedroles).toEqual([old]);
    // Answered before the grants are gone; they own nothing from the answer on.
    expect((await grantsByTimedRole(guild)).get(old.timedrole_id)).toBeGreaterThan(1000);
    expect(await privacyCount(guild, seeded[0]!)).toBe(0);

    // The module on again with a new timed role while the removal runs: its grants stay.
    ok(await world.call('POST', '/enable', { body: { guild_id: guild } }));
    const fresh = await addTimedRole(world, guild, snowflake(), 7200);
    await seedGrants(guild, fresh, seeded.slice(0, 10));
    expect(await privacyCount(guild, seeded[0]!)).toBe(1);

    const places = await watchSweep(guild);
    // One page a run: the removal went on over several runs, from a stored place.
    expect(places.size).toBeGreaterThan(1);
    expect(Object.fromEntries(await grantsByTimedRole(guild))).toEqual({ [fresh.timedrole_id]: 10 });
    expect(await privacyCount(guild, seeded[0]!)).toBe(1);
  });

  it("a timed role's delete answers at once and removes only its grants behind the answer", async () => {
    process.env.WELCOMING_SWEEP_PAGES = '1';
    const guild = await welcomingGuild(world, { timedroles_enabled: true });
    const [gone, kept] = [await addTimedRole(world, guild, snowflake(), 7200), await addTimedRole(world, guild, snowflake(), 7200)];
    const seeded = members(3000);
    await seedGrants(guild, gone, seeded);
    await seedGrants(guild, kept, seeded);
    expect(await privacyCount(guild, seeded[0]!)).toBe(2);

    expect(ok(await world.call('DELETE', `/timedroles/${gone.timedrole_id}`, { body: { guild_id: guild } }))).toEqual({ timedrole: gone });
    expect(await privacyCount(guild, seeded[0]!)).toBe(1);

    await watchSweep(guild);
    expect(Object.fromEntries(await grantsByTimedRole(guild))).toEqual({ [kept.timedrole_id]: 3000 });
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useSweep } from '#functions/invite-tracker/sweep.js';
import { countAll } from '#test/helpers/table.js';
import { ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { seedInviteUses } from '#test/helpers/invite-uses.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());
afterEach(() => {
  delete process.env.INVITE_SWEEP_PAGES;
});

const IT = '/modules/invite-tracker';

/** How many items of each kind the module keeps in the guild's partition (uses, members' latest uses). */
async function stored(guild: string, prefix: 'INVITEUSE#' | 'INVITEMEMBER#'): Promise<number> {
  return countAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': `G#${guild}`, ':p': prefix },
    ConsistentRead: true,
  });
}

async function removalEnds(guild: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (await useSweep.get(guild)) {
    if (Date.now() > until) throw new Error(`the uses of guild ${guild} were not removed within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function joinVia(guild: string, member: string, code: string): Promise<void> {
  const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const res = await fetch(`${origin}/_sandbox/guilds/${guild}/members/${member}/join-via-invite/${code}`, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  expect(res.status).toBeLessThan(300);
}
const check = (guild: string, member: string, which: 'join' | 'leave') =>
  service.call('POST', `${IT}/events/${which}/check-invite`, { body: { guild_id: guild }, headers: { 'x-acting-user-id': member } });
const privacyCount = async (guild: string, member: string) =>
  ok(await service.call('GET', `${IT}/privacy/get-user-entries`, { query: { guild_id: guild, privacy_member_id: member } })).id as number;

describe('an invite-tracker settings delete of many uses', { timeout: 90_000 }, () => {
  it('answers at once with the newest 1000 uses and the count, reads as reset, and removes the uses behind the answer', async () => {
    process.env.INVITE_SWEEP_PAGES = '1';
    const guild = snowflake();
    const channel = await sandboxOf(service).channelIn(guild);
    ok(await service.call('POST', `${IT}/enable`, { body: { guild_id: guild } }));
    const inviter = snowflake();
    const members = await seedInviteUses(guild, inviter, 'seeded', 3000);
    expect(await privacyCount(guild, inviter)).toBe(3000);

    const deleted = ok(await service.call('DELETE', `${IT}/settings`, { body: { guild_id: guild } }));
    expect(deleted.stats_uses).toHaveLength(1000);
    expect(deleted.stats_uses_total).toBe(3000);
    // Newest first: the last seeded use leads.
    expect(deleted.stats_uses[0]).toMatchObject({ member_id: members[2999], inviter_id: inviter, invite_id: 'seeded' });
    // Answered before the uses are gone, and the guild reads as reset at once.
    expect(await stored(guild, 'INVITEUSE#')).toBeGreaterThan(0);
    expect(ok(await service.call('GET', `${IT}/status`, { query: { guild_id: guild } })).status).toBe(false);
    const enabled = ok(await service.call('POST', `${IT}/enable`, { body: { guild_id: guild } }));
    expect(enabled).toMatchObject({ invites: [], stats_uses: [], stats_uses_total: 0 });
    expect(ok(await service.call('GET', `${IT}/stats/uses`, { query: { guild_id: guild, inviter_id: inviter } }))).toEqual({
      stats_uses: [],
      next_cursor: null,
    });
    expect(await privacyCount(guild, inviter)).toBe(0);
    expect(ok(await check(guild, members[0]!, 'leave')).message).toMatch(/no join of theirs is recorded/);

    // A seeded member joins again while the old uses are being removed: their new join and latest use stay.
    const owner = snowflake();
    const invite = ok(
      await service.call('POST', `${IT}/invites`, {
        body: { guild_id: guild, channel_id: channel, max_uses: 0, max_age: 0, is_temporary: false },
        headers: { 'x-acting-user-id': owner },
      }),
    );
    const again = members[2999]!;
    await joinVia(guild, again, invite.invite_code);
    expect(ok(await check(guild, again, 'join')).message).toContain(`exact through invite ${invite.invite_code}, invited by ${owner}`);

    await removalEnds(guild);
    expect(await stored(guild, 'INVITEUSE#')).toBe(1);
    expect(await stored(guild, 'INVITEMEMBER#')).toBe(1);
    expect(ok(await service.call('GET', `${IT}/stats/uses`, { query: { guild_id: guild, inviter_id: owner } })).stats_uses).toEqual([
      expect.objectContaining({ member_id: again, invite_id: invite.invite_code }),
    ]);
    expect(ok(await service.call('GET', `${IT}/invites`, { query: { guild_id: guild } })).invites).toHaveLength(1);
    // The member's latest use survived the removal: their leave finds it.
    expect(ok(await check(guild, again, 'leave')).message).toContain(`their join through ${invite.invite_code} is marked as left`);
  });

  it('answers only the uses stored since an earlier delete still being removed, and still ends', async () => {
    process.env.INVITE_SWEEP_PAGES = '1';
    const guild = snowflake();
    ok(await service.call('POST', `${IT}/enable`, { body: { guild_id: guild } }));
    await seedInviteUses(guild, snowflake(), 'first', 2000);
    expect(ok(await service.call('DELETE', `${IT}/settings`, { body: { guild_id: guild } })).stats_uses_total).toBe(2000);
    const second = ok(await service.call('DELETE', `${IT}/settings`, { body: { guild_id: guild } }));
    expect(second).toMatchObject({ settings: null, invites: [], stats_uses: [], stats_uses_total: 0 });
    await removalEnds(guild);
    expect(await stored(guild, 'INVITEUSE#')).toBe(0);
    expect(await stored(guild, 'INVITEMEMBER#')).toBe(0);
  });
});

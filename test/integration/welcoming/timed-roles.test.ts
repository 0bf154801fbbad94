/**
 * Timed roles on the durable scheduler: granted once at join time +
 * add_after, cancelled by a leave or the timed role's deletion, skipped for
 * a member gone, and caught up for members the join checks missed.
 */
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler as grantHandler } from '#functions/welcoming/jobs/timedrole-grant.js';
import { hourlyCatchUp } from '#functions/welcoming/grants.js';
import { WelcomingJobs, grantDueKey } from '#functions/welcoming/keys.js';
import { getDue } from '#shared/scheduler/store.js';
import { snowflake } from '#test/helpers/local.js';
import { addTimedRole, check, eventually, failed, grantRequests, ok, pause, startWorld, welcomingGuild } from './helpers.js';

const world = startWorld();

const HOUR = 3_600_000;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();
const privacyCount = async (guild: string, member: string) =>
  ok(await world.call('GET', '/privacy/get-user-entries', { query: { guild_id: guild, privacy_member_id: member } })).id as number;

/** A guild with timed roles on, one timed role, and a member who just joined (and was checked in). */
async function joinedWithTimedRole(addAfter: number) {
  const guild = await welcomingGuild(world, { timedroles_enabled: true });
  const role = snowflake();
  const timedRole = await addTimedRole(world, guild, role, addAfter);
  const member = snowflake();
  await world.members.join(guild, member);
  expect(ok(await check(world, 'role/on-join', guild, member)).message).toContain('Scheduled 1 timed role');
  return { guild, role, timedRole, member };
}

describe.concurrent('a timed role on join', () => {
  it('is granted add_after seconds after the join, once', async () => {
    const { guild, role, member } = await joinedWithTimedRole(2);
    expect(await world.sandbox.roles(guild, member)).toEqual([]);
    expect(await privacyCount(guild, member)).toBe(1);
    await eventually(async () => (await world.sandbox.roles(guild, member)).includes(role), 'the timed role');
    await pause(1500);
    expect(await grantRequests(world, guild, member, role)).toHaveLength(1);
  });

  it('is cancelled when the member leaves', async () => {
    const { guild, role, member } = await joinedWithTimedRole(2);
    const left = ok(await check(world, 'leave/channel', guild, member));
    expect(left.message).toContain('Cancelled 1 pending timed role');
    expect(await privacyCount(guild, member)).toBe(0);
    await pause(3000);
    expect(await grantRequests(world, guild, member, role)).toEqual([]);
  });

  it('is cancelled when the timed role is deleted', async () => {
    const { guild, role, timedRole, member } = await joinedWithTimedRole(2);
    ok(await world.call('DELETE', `/timedroles/${timedRole.timedrole_id}`, { body: { guild_id: guild } }));
    expect(await privacyCount(guild, member)).toBe(0);
    await pause(3000);
    expect(await grantRequests(world, guild, member, role)).toEqual([]);
  });

  it('is cancelled when the settings are deleted, with the hourly catch-up', async () => {
    const { guild, role, member } = await joinedWithTimedRole(2);
    expect(await getDue(WelcomingJobs.catchUp, guild)).not.toBeNull();
    expect(ok(await world.call('DELETE', '/settings', { body: { guild_id: guild } })).timedroles).toHaveLength(1);
    expect(await getDue(WelcomingJobs.catchUp, guild)).toBeNull();
    await pause(3000);
    expect(await grantRequests(world, guild, member, role)).toEqual([]);
  });

  it('leaves a catch-up whose timed roles were deleted before the settings to end at its next run', async () => {
    const guild = await welcomingGuild(world, { timedroles_enabled: true });
    const timedRole = await addTimedRole(world, guild, snowflake(), 60);
    ok(await world.call('DELETE', `/timedroles/${timedRole.timedrole_id}`, { body: { guild_id: guild } }));
    expect(ok(await world.call('DELETE', '/settings', { body: { guild_id: guild } })).timedroles).toEqual([]);
    expect(await hourlyCatchUp(guild)).toBeNull();
  });

  it('is skipped for a member gone at grant time (platform 10007), and not tried again', async () => {
    const { guild, role, member } = await joinedWithTimedRole(1);
    await world.members.leave(guild, member);
    const tried = await eventually(async () => {
      const requests = await grantRequests(world, guild, member, role);
      return requests.length > 0 && requests;
    }, 'the grant attempt');
    expect(tried.map((r) => r.status)).toEqual([404]);
    await eventually(async () => (await privacyCount(guild, member)) === 0, 'the grant to be dropped');
    await pause(1500);
    expect(await grantRequests(world, guild, member, role)).toHaveLength(1);
  });

  it('is granted once when its message is delivered several times and two consumers handle it at once', async () => {
    const { guild, role, timedRole, member } = await joinedWithTimedRole(2);
    const key = grantDueKey(guild, member, timedRole.timedrole_id);
    const dueAt = (await getDue(WelcomingJobs.grant, key))!.due_at;
    const body = JSON.stringify({ job: WelcomingJobs.grant, key, due_at: dueAt });
    // Duplicates on the queue, delivered with the scheduler's own message.
    const { queue } = world.service.jobs!.queues.get(WelcomingJobs.grant)!;
    for (let i = 0; i < 3; i++) queue.send(body, 2);
    // And two more consumers racing for it at its due time.
    await pause(Math.max(0, dueAt - Date.now()));
    const event = (id: string): SQSEvent => ({
      Records: [{ messageId: id, body, attributes: { ApproximateReceiveCount: '1' } } as SQSEvent['Records'][number]],
    });
    await Promise.all([grantHandler(event('a')), grantHandler(event('b'))]);
    await eventually(async () => (await world.sandbox.roles(guild, member)).includes(role), 'the timed role');
    await pause(2000);
    expect(await grantRequests(world, guild, member, role)).toHaveLength(1);
  });

  it('a second join check keeps the first grant (one grant, not two)', async () => {
    const { guild, role, member } = await joinedWithTimedRole(2);
    ok(await check(world, 'role/on-join', guild, member));
    await eventually(async () => (await world.sandbox.roles(guild, member)).includes(role), 'the timed role');
    await pause(1500);
    expect(await grantRequests(world, guild, member, role)).toHaveLength(1);
  });
});

describe('POST /check/role/timed: catching up', () => {
  it('grants members who joined while the service was down, schedules the rest, skips holders and bots, and never grants twice', async () => {
    const guild = await welcomingGuild(world, { timedroles_enabled: true });
    const role = snowflake();
    // Joins the service never heard of (it was down), before and after the timed role existed.
    const longAgo = snowflake();
    const recent = snowflake();
    const holder = snowflake();
    const bot = snowflake();
    await world.members.join(guild, longAgo, { joined_at: hoursAgo(5) });
    await world.members.join(guild, recent, { joined_at: hoursAgo(0.5) });
    await world.members.join(guild, holder, { joined_at: hoursAgo(5), roles: [role] });
    await world.members.join(guild, bot, { joined_at: hoursAgo(5), bot: true });
    await addTimedRole(world, guild, role, 3600);

    const first = ok(await check(world, 'role/timed', guild)).message;
    expect(first).toContain('Checked 3 members');
    expect(first).toContain('1 timed role was due');
    expect(first).toContain('1 scheduled for later');
    expect(first).toContain('1 already held');
    await eventually(async () => (await world.sandbox.roles(guild, longAgo)).includes(role), 'the overdue timed role');
    expect(await privacyCount(guild, recent)).toBe(1);

    // Again, and at once twice more: nothing is granted twice.
    const again = await Promise.all([check(world, 'role/timed', guild), check(world, 'role/timed', guild), check(world, 'role/timed', guild)]);
    for (const res of again) expect(ok(res).message).toContain('0 timed roles were due');
    await pause(1500);
    expect(await grantRequests(world, guild, longAgo, role)).toHaveLength(1);
    expect(await grantRequests(world, guild, recent, role)).toEqual([]);
    expect(await grantRequests(world, guild, holder, role)).toEqual([]);
    expect(await grantRequests(world, guild, bot, role)).toEqual([]);
  });

  it('pages the member list, 1000 members a page', async () => {
    const guild = await welcomingGuild(world, { timedroles_enabled: true });
    const role = snowflake();
    await Promise.all(Array.from({ length: 1002 }, () => world.members.join(guild, snowflake(), { joined_at: hoursAgo(2), roles: [role] })));
    const lacking = snowflake();
    await world.members.join(guild, lacking, { joined_at: hoursAgo(2) });
    await addTimedRole(world, guild, role, 60);
    const res = ok(await check(world, 'role/timed', guild)).message;
    expect(res).toContain('Checked 1003 members');
    expect(res).toContain('(2 pages)');
    await eventually(async () => (await world.sandbox.roles(guild, lacking)).includes(role), 'the timed role');
    const pages = (await world.sandbox.requests()).filter((r) => r.method === 'GET' && r.path === `/guilds/${guild}/members`);
    expect(pages).toHaveLength(2);
  });

  it('has nothing to do with timed roles off or none defined', async () => {
    const off = await welcomingGuild(world);
    expect(ok(await check(world, 'role/timed', off)).message).toContain('timedroles_enabled is off');
    const none = await welcomingGuild(world, { timedroles_enabled: true });
    expect(ok(await check(world, 'role/timed', none)).message).toContain('no timed roles');
  });

  it('also runs by itself every hour for a guild with timed roles', async () => {
    const guild = await welcomingGuild(world, { timedroles_enabled: true });
    const role = snowflake();
    const timedRole = await addTimedRole(world, guild, role, 60);
    const due = await getDue(WelcomingJobs.catchUp, guild);
    expect(due!.due_at - Date.now()).toBeGreaterThan(HOUR - 60_000);
    const member = snowflake();
    await world.members.join(guild, member, { joined_at: hoursAgo(1) });

    // The hourly run itself (its time is an hour away): it catches up and asks to run again in an hour.
    const next = await hourlyCatchUp(guild);
    expect(next! - Date.now()).toBeGreaterThan(HOUR - 60_000);
    await eventually(async () => (await world.sandbox.roles(guild, member)).includes(role), 'the timed role');
    ok(await world.call('DELETE', `/timedroles/${timedRole.timedrole_id}`, { body: { guild_id: guild } }));
    expect(await hourlyCatchUp(guild)).toBeNull();
  });
});

describe.concurrent('privacy', () => {
  it("counts a member's pending grants and removes them, which cancels them", async () => {
    const guild = await welcomingGuild(world, { timedroles_enabled: true });
    const roles = [snowflake(), snowflake()];
    for (const role of roles) await addTimedRole(world, guild, role, 2);
    const member = snowflake();
    await world.members.join(guild, member);
    ok(await check(world, 'role/on-join', guild, member));
    expect(ok(await world.call('GET', '/privacy/get-user-entries', { query: { guild_id: guild, privacy_member_id: member } }))).toEqual({
      username: 0,
      display_name: 0,
      global_name: 0,
      nickname: 0,
      id: 2,
    });
    failed(await world.call('GET', '/privacy/get-user-entries', { query: { guild_id: guild } }), 400, 'BadRequestError');
    failed(await world.call('DELETE', '/privacy/delete-user-entries', { body: { guild_id: guild, privacy_member_id: 'me' } }), 400, 'BadRequestError');
    // Any module state: a disabled module still answers for its data.
    ok(await world.call('POST', '/disable', { body: { guild_id: guild } }));
    expect(await privacyCount(guild, member)).toBe(2);
    const removed = ok(await world.call('DELETE', '/privacy/delete-user-entries', { body: { guild_id: guild, privacy_member_id: member } }));
    expect(removed.message).toContain('Removed 2');
    expect(await privacyCount(guild, member)).toBe(0);
    await pause(3000);
    for (const role of roles) expect(await grantRequests(world, guild, member, role)).toEqual([]);
  });
});

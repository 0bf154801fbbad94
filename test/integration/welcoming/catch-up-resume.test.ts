/**
 * The timed-role catch-up of a large guild spans runs (behaviour §15): each
 * run reads a bounded number of member pages, stores where it stopped, and
 * asks for the next run; a run repeated from the same place (a redelivery,
 * two consumers) grants nothing twice and skips nobody.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hourlyCatchUp } from '#functions/welcoming/grants.js';
import { WelcomingJobs } from '#functions/welcoming/keys.js';
import { catchUpPlace } from '#functions/welcoming/store.js';
import { scheduler } from '#shared/scheduler/index.js';
import { getDue } from '#shared/scheduler/store.js';
import { snowflake } from '#test/helpers/local.js';
import { addTimedRole, check, eventually, ok, startWorld, welcomingGuild } from './helpers.js';

const world = startWorld();

const HOUR = 3_600_000;
const twoHoursAgo = () => new Date(Date.now() - 2 * HOUR).toISOString();
/** One member page a run, however long the run may take. */
const onePage = () => ({ pages: 1, until: Date.now() + 60_000 });

/**
 * A guild with timed roles on and 2,400 members holding the role besides
 * `lacking` members without it (their IDs spread among the holders'), all
 * joined two hours ago: three member pages; the timed role is due at once.
 */
async function largeGuild(lacking = 40) {
  const guild = await welcomingGuild(world, { timedroles_enabled: true });
  const role = snowflake();
  const members = Array.from({ length: lacking }, () => snowflake());
  await world.members.joinMany(guild, members, { joined_at: twoHoursAgo() });
  await world.members.joinMany(
    guild,
    Array.from({ length: 2400 }, () => snowflake()),
    { joined_at: twoHoursAgo(), roles: [role] },
  );
  await addTimedRole(world, guild, role, 60);
  return { guild, role, members };
}

/** How many times the platform was asked to grant `role` to each member of the guild. */
async function grantsByMember(guild: string, role: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const r of await world.sandbox.requests()) {
    const match = r.method === 'PUT' ? /^\/guilds\/(\d+)\/members\/(\d+)\/roles\/(\d+)$/.exec(r.path) : null;
    if (match?.[1] === guild && match[3] === role) counts.set(match[2]!, (counts.get(match[2]!) ?? 0) + 1);
  }
  return counts;
}

/** Every member granted the role, each exactly once. */
async function expectEachGrantedOnce(guild: string, role: string, members: string[]) {
  await eventually(async () => (await grantsByMember(guild, role)).size === members.length, `the timed role for all ${members.length} members`, 60_000);
  const counts = await grantsByMember(guild, role);
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
  expect(members.every((m) => counts.has(m))).toBe(true);
}

describe('a catch-up over several runs', { timeout: 90_000 }, () => {
  afterEach(() => {
    delete process.env.WELCOMING_CATCHUP_PAGES;
    delete process.env.WELCOMING_CATCHUP_CHECK_PAGES;
  });

  it('resumes each run where the last stopped, asks for the next at once, and grants every member once', async () => {
    const { guild, role, members } = await largeGuild();

    // 2,440 members: three pages, one a run.
    const first = await hourlyCatchUp(guild, onePage());
    expect(first! - Date.now()).toBeLessThan(5_000);
    const place = await catchUpPlace(guild);
    expect(place).not.toBeNull();

    // The second run, and the same run again from the same place (a redelivered message, a second consumer).
    const [second, again] = await Promise.all([hourlyCatchUp(guild, onePage()), hourlyCatchUp(guild, onePage())]);
    expect(second! - Date.now()).toBeLessThan(5_000);
    expect(again! - Date.now()).toBeLessThan(5_000);
    const movedTo = await catchUpPlace(guild);
    expect(BigInt(movedTo!)).toBeGreaterThan(BigInt(place!));

    // The last page ends the pass: the place is gone and the next run is the hourly one.
    const last = await hourlyCatchUp(guild, onePage());
    expect(last! - Date.now()).toBeGreaterThan(HOUR - 60_000);
    expect(await catchUpPlace(guild)).toBeNull();

    await expectEachGrantedOnce(guild, role, members);
    // A further pass owes nothing.
    await hourlyCatchUp(guild, onePage());
    await hourlyCatchUp(guild, { pages: 10, until: Date.now() + 60_000 });
    expect([...(await grantsByMember(guild, role)).values()].every((n) => n === 1)).toBe(true);
  });

  it('goes on by itself on the scheduler, a bounded run at a time, until the end of the member list', async () => {
    process.env.WELCOMING_CATCHUP_PAGES = '1';
    const { guild, role, members } = await largeGuild();
    await scheduler.scheduleAt(WelcomingJobs.catchUp, guild, Date.now());
    await expectEachGrantedOnce(guild, role, members);
    // The pass is over: the catch-up waits for its hourly run.
    await eventually(async () => ((await getDue(WelcomingJobs.catchUp, guild))?.due_at ?? 0) > Date.now() + HOUR - 60_000, 'the hourly catch-up');
    expect(await catchUpPlace(guild)).toBeNull();
    const pages = (await world.sandbox.requests()).filter((r) => r.method === 'GET' && r.path === `/guilds/${guild}/members`);
    expect(pages).toHaveLength(3);
  });

  it('answers a check at once and leaves the rest of a pass it could not finish to the scheduler', async () => {
    process.env.WELCOMING_CATCHUP_CHECK_PAGES = '1';
    process.env.WELCOMING_CATCHUP_PAGES = '1';
    const { guild, role, members } = await largeGuild();
    const message = ok(await check(world, 'role/timed', guild)).message as string;
    expect(message).toContain('(1 page)');
    expect(message).toContain('under way');
    expect(await catchUpPlace(guild)).not.toBeNull();
    await expectEachGrantedOnce(guild, role, members);
    await eventually(async () => (await catchUpPlace(guild)) === null, 'the end of the pass');
  });
});

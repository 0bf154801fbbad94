/**
 * Counters: voice channels named with a figure, created in the category,
 * renamed only when the name changes and never beyond the platform's limit
 * of two renames per channel in ten minutes (time moved forward on the
 * shared clock, which the sandbox's limit is reckoned in too).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { eventually } from '../polls/helpers.js';
import { membersOf } from '../welcoming/members-sandbox.js';
import { SS, ok, statsGuild } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

interface ChannelView {
  id: string;
  name: string;
  type: number;
  guild_id?: string;
}

async function control(method: string, path: string, body?: unknown): Promise<void> {
  const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const res = await fetch(`${origin}/_sandbox${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
}

const channelsOf = async (guild: string) => (await membersOf(service).api<ChannelView[]>(`/guilds/${guild}/channels`)).body;
const channelName = async (guild: string, channelId: string) => (await channelsOf(guild)).find((c) => c.id === channelId)?.name;

/** A guild with the module on, counters on, a category made by the service, and `members` members. */
async function counterGuild(members = 3): Promise<{ guild: string; category: string }> {
  const guild = await statsGuild(service);
  const settings = ok(
    await service.call('PUT', `${SS}/settings`, { body: { guild_id: guild, counters_enabled: true, counters_category_id: 'create' } }),
  ).settings;
  for (let i = 0; i < members; i++) await membersOf(service).join(guild, snowflake());
  return { guild, category: settings.counters_category_id };
}

const createCounter = (guild: string, body: Record<string, unknown>) => service.call('POST', `${SS}/counters`, { looseBody: { guild_id: guild, ...body } });
const refresh = (guild: string) => service.call('POST', `${SS}/counters/update`, { body: { guild_id: guild } });
const renamesOf = async (channelId: string) => (await sandboxOf(service).requests()).filter((r) => r.method === 'PATCH' && r.path === `/channels/${channelId}`);

describe('creating counters', () => {
  it('creates a voice channel in the category named with the figure, and lists, gets and deletes it', async () => {
    const { guild, category } = await counterGuild(3);
    const categoryChannel = (await channelsOf(guild)).find((c) => c.id === category);
    expect(categoryChannel).toMatchObject({ name: 'Server Stats', type: 4 });

    const counter = ok(await createCounter(guild, { counter_type: 6, new_format: null, new_role_id: null, new_goal: null })).counter;
    expect(counter).toMatchObject({ guild_id: guild, counter_type: 6, format: 'Members: <value>', role_id: null, goal_count: null, value: '3' });
    const channel = (await channelsOf(guild)).find((c) => c.id === counter.channel_id);
    expect(channel).toMatchObject({ name: 'Members: 3', type: 2 });

    expect(ok(await service.call('GET', `${SS}/counters/${counter.counter_id}`, { query: { guild_id: guild } })).counter).toEqual(counter);
    expect(ok(await service.call('GET', `${SS}/counters`, { query: { guild_id: guild } })).counters).toEqual([counter]);
    const snapshot = ok(await service.call('POST', `${SS}/disable`, { body: { guild_id: guild } }));
    expect(snapshot.counters).toEqual([counter]);
    ok(await service.call('POST', `${SS}/enable`, { body: { guild_id: guild } }));

    expect(ok(await service.call('DELETE', `${SS}/counters/${counter.counter_id}`, { body: { guild_id: guild } })).counter.counter_id).toBe(counter.counter_id);
    expect((await channelsOf(guild)).some((c) => c.id === counter.channel_id)).toBe(false);
    expect((await service.call('GET', `${SS}/counters/${counter.counter_id}`, { query: { guild_id: guild } })).status).toBe(404);
  });

  it('shows goals, roles and statuses as the format says', async () => {
    const { guild } = await counterGuild(2);
    const role = snowflake();
    await control('PUT', `/guilds/${guild}/roles/${role}`, { name: 'Gold' });
    const members = membersOf(service);
    await members.join(guild, snowflake(), { roles: [role] });
    const goal = ok(await createCounter(guild, { counter_type: 6, new_format: 'To go: <value>', new_role_id: null, new_goal: 10 })).counter;
    expect(await channelName(guild, goal.channel_id)).toBe('To go: 7');
    const gold = ok(await createCounter(guild, { counter_type: 7, new_format: null, new_role_id: role, new_goal: null })).counter;
    expect(await channelName(guild, gold.channel_id)).toBe('Gold: 1');
    ok(await service.call('POST', `${SS}/stats/activities/statuses`, { body: { guild_id: guild, online_count: 5, offline_count: 6, dnd_count: 2 } }));
    const statuses = ok(await createCounter(guild, { counter_type: 1, new_format: null, new_role_id: null, new_goal: null })).counter;
    expect(await channelName(guild, statuses.channel_id)).toBe('Online: 5 | Offline: 6 | DND: 2');
    await control('PUT', `/guilds/${guild}/counts`, { boosts: 4 });
    const boosts = ok(await createCounter(guild, { counter_type: 8, new_format: '<value> boosts', new_role_id: null, new_goal: null })).counter;
    expect(await channelName(guild, boosts.channel_id)).toBe('4 boosts');
    const channels = ok(await createCounter(guild, { counter_type: 9, new_format: null, new_role_id: null, new_goal: null })).counter;
    // The category and the counters made so far (this one's channel does not exist yet when it is counted).
    expect(await channelName(guild, channels.channel_id)).toBe('Channels: 5');
  });

  it('refuses what breaks a rule, and changes nothing', async () => {
    const { guild } = await counterGuild(1);
    const refused = async (body: Record<string, unknown>, field: string) => {
      const res = await createCounter(guild, { new_format: null, new_role_id: null, new_goal: null, ...body });
      expect(res.status, res.text).toBe(422);
      expect(errorOf(res).message).toContain(field);
    };
    await refused({ counter_type: 3, new_role_id: snowflake() }, "'counter_type' 3");
    await refused({ counter_type: 11 }, "'counter_type'");
    await refused({ counter_type: 7 }, "'new_role_id'");
    await refused({ counter_type: 6, new_role_id: snowflake() }, "'new_role_id'");
    await refused({ counter_type: 7, new_role_id: snowflake() }, "new_role_id' names role");
    await refused({ counter_type: 6, new_format: `${'x'.repeat(99)} <value>` }, "'new_format'");
    expect((await createCounter(guild, { counter_type: '6', new_format: null, new_role_id: null, new_goal: null })).status).toBe(400);
    expect(ok(await service.call('GET', `${SS}/counters`, { query: { guild_id: guild } })).counters).toEqual([]);
    expect((await channelsOf(guild)).filter((c) => c.type === 2)).toEqual([]);

    const off = await statsGuild(service);
    const res = await createCounter(off, { counter_type: 6, new_format: null, new_role_id: null, new_goal: null });
    expect(res.status).toBe(422);
    expect(errorOf(res).message).toContain('counters_enabled');
  });

  it('allows at most 20 counters a guild, also when created at once', async () => {
    const { guild } = await counterGuild(1);
    const results = await Promise.all(
      Array.from({ length: 23 }, () => createCounter(guild, { counter_type: 6, new_format: null, new_role_id: null, new_goal: null })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    expect(results.filter((r) => r.status === 422)).toHaveLength(3);
    expect(ok(await service.call('GET', `${SS}/counters`, { query: { guild_id: guild } })).counters).toHaveLength(20);
    expect((await channelsOf(guild)).filter((c) => c.type === 2)).toHaveLength(20);
  });

  it('goes with the settings: the delete answers every counter, and a new start has all 20 places', async () => {
    const { guild } = await counterGuild(1);
    const made = await Promise.all(
      Array.from({ length: 20 }, () => createCounter(guild, { counter_type: 6, new_format: null, new_role_id: null, new_goal: null })),
    );
    const ids = made.map((r) => ok(r).counter.counter_id).sort();
    const deleted = ok(await service.call('DELETE', `${SS}/settings`, { body: { guild_id: guild } }));
    expect(deleted.counters.map((c: { counter_id: string }) => c.counter_id).sort()).toEqual(ids);
    ok(await service.call('POST', `${SS}/enable`, { body: { guild_id: guild } }));
    ok(await service.call('PUT', `${SS}/settings`, { body: { guild_id: guild, counters_enabled: true, counters_category_id: 'create' } }));
    expect(ok(await service.call('GET', `${SS}/counters`, { query: { guild_id: guild } })).counters).toEqual([]);
    const again = await Promise.all(
      Array.from({ length: 21 }, () => createCounter(guild, { counter_type: 6, new_format: null, new_role_id: null, new_goal: null })),
    );
    expect(again.filter((r) => r.status === 200)).toHaveLength(20);
  });
});

describe('refreshing counters', () => {
  it('renames only when the name changes, twice per 10 minutes at most, and catches up when the budget frees', async () => {
    const { guild } = await counterGuild(1);
    const counter = ok(await createCounter(guild, { counter_type: 6, new_format: null, new_role_id: null, new_goal: null })).counter;
    const members = membersOf(service);
    await sandboxOf(service).clearRequests();

    // Nothing changed: no rename.
    ok(await refresh(guild));
    await eventually(async () => (await service.call('GET', `${SS}/counters/${counter.counter_id}`, { query: { guild_id: guild } })).status === 200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await renamesOf(counter.channel_id)).toEqual([]);

    for (const expected of ['Members: 2', 'Members: 3']) {
      await members.join(guild, snowflake());
      ok(await refresh(guild));
      await eventually(async () => (await channelName(guild, counter.channel_id)) === expected, 10_000, expected);
    }
    // A third change within the window waits for the budget.
    await members.join(guild, snowflake());
    ok(await refresh(guild));
    await new Promise((r) => setTimeout(r, 1500));
    expect(await channelName(guild, counter.channel_id)).toBe('Members: 3');
    expect((await renamesOf(counter.channel_id)).map((r) => r.status)).toEqual([200, 200]);

    await control('POST', '/clock', { advance_ms: 10 * 60 * 1000 });
    ok(await refresh(guild));
    await eventually(async () => (await channelName(guild, counter.channel_id)) === 'Members: 4', 10_000, 'the deferred rename');
    const stored = ok(await service.call('GET', `${SS}/counters/${counter.counter_id}`, { query: { guild_id: guild } })).counter;
    expect(stored.value).toBe('4');
    expect((await renamesOf(counter.channel_id)).every((r) => r.status === 200)).toBe(true);
  });

  it('defers a rename the platform answers 429, without retrying it in a loop', async () => {
    const { guild } = await counterGuild(1);
    const counter = ok(await createCounter(guild, { counter_type: 6, new_format: null, new_role_id: null, new_goal: null })).counter;
    await sandboxOf(service).clearRequests();
    await sandboxOf(service).fault({ method: 'PATCH', path: `/channels/${counter.channel_id}`, status: 429, times: 5, retry_after: 30 });
    await membersOf(service).join(guild, snowflake());
    ok(await refresh(guild));
    await eventually(async () => (await renamesOf(counter.channel_id)).length >= 1, 10_000, 'a rename attempt');
    await new Promise((r) => setTimeout(r, 2000));
    expect(await renamesOf(counter.channel_id)).toHaveLength(1);
    expect(await channelName(guild, counter.channel_id)).toBe('Members: 1');
    await sandboxOf(service).clearFaults();
  });
});

describe('a rename the platform answers 429 with a long retry_after', () => {
  it('waits out the retry_after before trying again, however often the counters are refreshed, then renames once', async () => {
    const { guild } = await counterGuild(1);
    const counter = ok(await createCounter(guild, { counter_type: 6, new_format: null, new_role_id: null, new_goal: null })).counter;
    await sandboxOf(service).clearRequests();
    // Minutes: far past what one request may wait, so the rename is deferred.
    await sandboxOf(service).fault({ method: 'PATCH', path: `^/channels/${counter.channel_id}$`, status: 429, times: 1, retry_after: 300 });
    await membersOf(service).join(guild, snowflake());
    ok(await refresh(guild));
    await eventually(async () => (await renamesOf(counter.channel_id)).length >= 1, 10_000, 'a rename attempt');
    for (let i = 0; i < 3; i++) {
      ok(await refresh(guild));
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(await renamesOf(counter.channel_id)).toHaveLength(1);
    expect(await channelName(guild, counter.channel_id)).toBe('Members: 1');
    // Once the retry_after has passed, the next refresh renames, once.
    await control('POST', '/clock', { advance_ms: 301 * 1000 });
    ok(await refresh(guild));
    await eventually(async () => (await channelName(guild, counter.channel_id)) === 'Members: 2', 10_000, 'the deferred rename');
    expect((await renamesOf(counter.channel_id)).map((r) => r.status)).toEqual([429, 200]);
  });
});

describe('deleted channels', () => {
  it('drops the counter of a deleted channel, and every counter with the category', async () => {
    const { guild, category } = await counterGuild(1);
    const make = async () => ok(await createCounter(guild, { counter_type: 6, new_format: null, new_role_id: null, new_goal: null })).counter;
    const [a, b, c] = [await make(), await make(), await make()];
    const check = (channel: string) => service.call('POST', `${SS}/counters/check-delete`, { body: { guild_id: guild, channel_id: channel } });
    expect(ok(await check(a.channel_id)).message).toContain(a.counter_id);
    expect(ok(await check(snowflake())).message).toContain('nothing to drop');
    expect(
      ok(await service.call('GET', `${SS}/counters`, { query: { guild_id: guild } }))
        .counters.map((x: { counter_id: string }) => x.counter_id)
        .sort(),
    ).toEqual([b.counter_id, c.counter_id].sort());
    expect(ok(await check(category)).message).toContain('2 counters dropped');
    expect(ok(await service.call('GET', `${SS}/counters`, { query: { guild_id: guild } })).counters).toEqual([]);
    const settings = ok(await service.call('GET', `${SS}/settings`, { query: { guild_id: guild } })).settings;
    expect(settings).toMatchObject({ counters_enabled: false, counters_category_id: null });
  });

  it('keeps counter checks internal', async () => {
    const { guild } = await counterGuild(1);
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret;
    expect((await service.call('POST', `${SS}/counters/update`, { token: key, body: { guild_id: guild } })).status).toBe(403);
    expect((await service.call('POST', `${SS}/counters`, { token: key, body: { guild_id: guild, counter_type: 6 } })).status).toBe(200);
  });
});

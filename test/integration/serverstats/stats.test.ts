/**
 * The statistic families, every one of them generated from the same table
 * the routes are built from, so none can be forgotten.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, type Family, filtersOf } from '#functions/serverstats/families.js';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';
import { putStat } from '#functions/serverstats/store.js';
import { issueCursor } from '#shared/db/cursor.js';
import { SS, fetchStats, ok, recordStat, sample, statsGuild } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const byPath = (path: string) => FAMILIES.find((f) => f.path === path)!;

const NUMBER_FAMILIES = FAMILIES.filter((family) => family.shape.kind === 'number');

describe.each(NUMBER_FAMILIES.map((family) => [family.path, family] as [string, Family]))('number family %s', (_path, family) => {
  it('stores every time its schema takes, a magnitude below what the table keeps as 0, and refuses the rest with 422 storing nothing', async () => {
    expect(NUMBER_FAMILIES).toHaveLength(7);
    const field = (family.shape as { field: string }).field;
    const guild = await statsGuild(service);
    // Each as the JSON text a client sends; the table keeps no nonzero magnitude below 1e-130.
    const taken: [string, number][] = [
      ['1e-131', 0],
      ['5e-324', 0],
      ['1e-130', 1e-130],
      ['0.30000000000000004', 0.30000000000000004],
      ['1e12', 1e12],
    ];
    for (const [text] of taken) {
      const res = await service.call('POST', `${SS}/stats/${family.path}`, { rawBody: `{"guild_id": "${guild}", "${field}": ${text}}` });
      expect({ text, status: res.status }).toEqual({ text, status: 200 });
    }
    const stored = ok(await fetchStats(service, family, { guild_id: guild })).stats.map((record: Record<string, number>) => record[field]);
    expect(stored.sort()).toEqual(taken.map(([, value]) => value).sort());
    for (const text of ['1.7976931348623157e308', '-1e-131', '1e13', '18446744073709551616']) {
      const res = await service.call('POST', `${SS}/stats/${family.path}`, { rawBody: `{"guild_id": "${guild}", "${field}": ${text}}` });
      expect({ text, status: res.status }).toEqual({ text, status: 422 });
      expect(errorOf(res).message).toContain(`'${field}'`);
    }
    expect(ok(await fetchStats(service, family, { guild_id: guild })).stats).toHaveLength(taken.length);
  });
});

describe.each(FAMILIES.map((family) => [family.path, family] as [string, Family]))('family %s', (_path, family) => {
  it('records one record and fetches it back with the fields of its shape', async () => {
    const guild = await statsGuild(service);
    const member = snowflake();
    const channel = snowflake();
    const { body, record } = sample(family, guild, member, channel);
    const recorded = ok(await recordStat(service, family, body));
    expect(recorded.message).toMatch(/ecorded|Opened/);

    const fetched = ok(await fetchStats(service, family, { guild_id: guild }));
    expect(fetched.stats).toHaveLength(1);
    expect(fetched.stats[0]).toMatchObject({ guild_id: guild, ...record });
    expect(Number.isInteger(fetched.stats[0].id)).toBe(true);
    expect(fetched.next_cursor).toBeNull();
    const time = fetched.stats[0].timestamp ?? fetched.stats[0].start_time ?? fetched.stats[0].joined_at;
    expect(Math.abs(Date.parse(time) - Date.now())).toBeLessThan(60_000);
  });

  it('stores nothing and answers 200 while its toggle is off', async () => {
    const guild = await statsGuild(service);
    ok(await service.call('PUT', `${SS}/settings`, { body: { guild_id: guild, [family.toggle]: false } }));
    const res = ok(await recordStat(service, family, sample(family, guild, snowflake(), snowflake()).body));
    expect(res.message).toContain(family.toggle);
    expect(ok(await fetchStats(service, family, { guild_id: guild })).stats).toEqual([]);
  });

  it('filters by member and channel where the family has them, through keys', async () => {
    const guild = await statsGuild(service);
    const [a, b] = [snowflake(), snowflake()];
    const [c1, c2] = [snowflake(), snowflake()];
    for (const [member, channel] of [
      [a, c1],
      [a, c2],
      [b, c1],
    ] as const)
      ok(await recordStat(service, family, sample(family, guild, member, channel).body));
    const count = async (query: Record<string, string>) => ok(await fetchStats(service, family, { guild_id: guild, ...query })).stats.length;
    const filters = filtersOf(family.shape);
    // Presence and voice keep one open record per member (and channel), so the same member's second one may end the first.
    if (filters.user) expect(await count({ user_id: b })).toBe(1);
    if (filters.channel) expect(await count({ channel_id: c2 })).toBe(1);
    if (filters.user && filters.channel) expect(await count({ user_id: a, channel_id: c1 })).toBe(1);
    if (!filters.user) {
      const refused = await fetchStats(service, family, { guild_id: guild, user_id: 'x' });
      // A filter the family does not have is ignored (unknown fields are ignored, behaviour §3.5).
      expect(refused.status).toBe(200);
    }
  });
});

describe('recording rules', () => {
  const messages = byPath('messages/sent');

  it('refuses bad bodies with the field named, and stores nothing', async () => {
    const guild = await statsGuild(service);
    const missing = await recordStat(service, messages, { guild_id: guild, channel_id: snowflake(), message_id: snowflake() });
    expect(missing.status).toBe(400);
    expect(errorOf(missing).message).toContain("'author_id'");
    const badId = await recordStat(service, messages, { guild_id: guild, channel_id: 'abc', author_id: snowflake(), message_id: snowflake() });
    expect(badId.status).toBe(400);
    const negative = await recordStat(service, byPath('members/total'), { guild_id: guild, current_members: -1 });
    expect(negative.status).toBe(422);
    expect(errorOf(negative).message).toContain("'current_members'");
    expect(ok(await fetchStats(service, messages, { guild_id: guild })).stats).toEqual([]);
  });

  it('answers 409 while the module is disabled, and 404 for an unknown family', async () => {
    const guild = snowflake();
    const res = await recordStat(service, messages, sample(messages, guild, snowflake(), snowflake()).body);
    expect(res.status).toBe(409);
    expect(errorOf(res).name).toBe('ModuleDisabledError');
    expect((await fetchStats(service, messages, { guild_id: guild })).status).toBe(409);
    expect((await service.call('GET', `${SS}/stats/messages/edited`, { query: { guild_id: guild } })).status).toBe(404);
  });

  it('keeps recording internal and fetches to the guild of a key', async () => {
    const guild = await statsGuild(service);
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret;
    const recorded = await service.call('POST', `${SS}/stats/messages/sent`, { token: key, looseBody: sample(messages, guild, snowflake(), snowflake()).body });
    expect(recorded.status).toBe(403);
    expect((await service.call('GET', `${SS}/stats/messages/sent`, { token: key, query: { guild_id: guild } })).status).toBe(200);
    expect((await service.call('GET', `${SS}/stats/messages/sent`, { token: key, query: { guild_id: snowflake() } })).status).toBe(403);
  });
});

describe('fetching', () => {
  const commands = byPath('commands/used');

  /** Every page of a fetch, following next_cursor; answers the pages' records in order. */
  async function walk(family: Family, query: Record<string, string | number>): Promise<{ command: string }[]> {
    const seen: { command: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = ok(await fetchStats(service, family, { ...query, ...(cursor ? { cursor } : {}) }));
      seen.push(...page.stats);
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 20);
    return seen;
  }

  it('pages with limit and an opaque cursor, newest first, on the table and on every index', async () => {
    const guild = await statsGuild(service);
    const [member, channel] = [snowflake(), snowflake()];
    for (let i = 0; i < 5; i++) ok(await recordStat(service, commands, { guild_id: guild, initiator_id: member, command: `c${i}` }));
    ok(await recordStat(service, commands, { guild_id: guild, initiator_id: snowflake(), command: 'other' }));
    expect((await walk(commands, { guild_id: guild, limit: 2 })).map((s) => s.command)).toEqual(['other', 'c4', 'c3', 'c2', 'c1', 'c0']);
    expect((await walk(commands, { guild_id: guild, user_id: member, limit: 2 })).map((s) => s.command)).toEqual(['c4', 'c3', 'c2', 'c1', 'c0']);

    const sent = byPath('messages/sent');
    for (let i = 0; i < 3; i++) ok(await recordStat(service, sent, { guild_id: guild, channel_id: channel, author_id: member, message_id: snowflake() }));
    ok(await recordStat(service, sent, { guild_id: guild, channel_id: channel, author_id: snowflake(), message_id: snowflake() }));
    expect(await walk(sent, { guild_id: guild, channel_id: channel, limit: 1 })).toHaveLength(4);
    expect(await walk(sent, { guild_id: guild, channel_id: channel, user_id: member, limit: 1 })).toHaveLength(3);
  });

  it('refuses, with a 422 naming cursor, every cursor it did not issue for this guild, family and filter', async () => {
    const guild = await statsGuild(service);
    const member = snowflake();
    for (let i = 0; i < 3; i++) ok(await recordStat(service, commands, { guild_id: guild, initiator_id: member, command: `c${i}` }));
    const first = ok(await fetchStats(service, commands, { guild_id: guild, limit: 1 }));
    const byMember = ok(await fetchStats(service, commands, { guild_id: guild, user_id: member, limit: 1 }));
    const cursor: string = first.next_cursor;
    const refused = async (label: string, family: Family, query: Record<string, string | number>) => {
      const res = await fetchStats(service, family, query);
      expect(res.status, `${label}: ${res.text}`).toBe(422);
      expect(errorOf(res).message, label).toContain("'cursor'");
    };
    const otherGuild = await statsGuild(service);
    ok(await recordStat(service, commands, { guild_id: otherGuild, initiator_id: member, command: 'theirs' }));
    await refused('another guild', commands, { guild_id: otherGuild, limit: 1, cursor });
    await refused('another filter', commands, { guild_id: guild, user_id: member, limit: 1, cursor });
    await refused('another filter value', commands, { guild_id: guild, user_id: snowflake(), limit: 1, cursor: byMember.next_cursor });
    await refused('no filter for a filtered cursor', commands, { guild_id: guild, limit: 1, cursor: byMember.next_cursor });
    await refused('another family', byPath('messages/sent'), { guild_id: guild, limit: 1, cursor });
    await refused('another family, same filter', byPath('members/joined'), { guild_id: guild, user_id: member, limit: 1, cursor: byMember.next_cursor });
    await refused('altered signature', commands, { guild_id: guild, limit: 1, cursor: cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA') });
    await refused('truncated', commands, { guild_id: guild, limit: 1, cursor: cursor.slice(0, -5) });
    await refused('not base64', commands, { guild_id: guild, limit: 1, cursor: cursor.replace(/\.([^.]+)\./, '.!!$1.') });
    await refused('garbage', commands, { guild_id: guild, cursor: 'garbage' });
    await refused('huge', commands, { guild_id: guild, cursor: `c2.${'A'.repeat(5000)}.${'B'.repeat(43)}` });

    // The position moved, re-encoded under the old signature, or under a plain hash anyone can compute: refused.
    const [version, body, mac] = cursor.split('.') as [string, string, string];
    const place = Buffer.from(body, 'base64url').toString('utf8');
    const moved = Buffer.from(place.replace(/#\d{16}"/, '#9999999999999999"')).toString('base64url');
    expect(moved).not.toBe(body);
    await refused('moved position', commands, { guild_id: guild, limit: 1, cursor: `${version}.${moved}.${mac}` });
    const hashed = createHash('sha256').update(moved).digest('base64url');
    await refused('plain hash', commands, { guild_id: guild, limit: 1, cursor: `${version}.${moved}.${hashed}` });

    // Well signed with the deployment's secret, for this very list, but not a record's place: refused, never sent to the table.
    const scope = { guildId: guild, family: commands.path, filter: { user_id: null, channel_id: null } };
    for (const forged of ['', '~', 'x#1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z#1', `${place}#extra`]) {
      await refused(`signed ${JSON.stringify(forged)}`, commands, { guild_id: guild, limit: 1, cursor: await issueCursor(scope, forged) });
    }
    const memberScope = { guildId: guild, family: commands.path, filter: { user_id: member, channel_id: null } };
    await refused('signed, index', commands, { guild_id: guild, user_id: member, limit: 1, cursor: await issueCursor(memberScope, 'not-a-place') });
    // The same list's own cursor still works after all that.
    expect(ok(await fetchStats(service, commands, { guild_id: guild, limit: 1, cursor })).stats).toHaveLength(1);
  });

  it('answers an empty last page when a cursor starts before a shorter days window', async () => {
    const guild = await statsGuild(service);
    for (let i = 0; i < 2; i++) ok(await recordStat(service, commands, { guild_id: guild, initiator_id: snowflake(), command: `new${i}` }));
    const old = new Date(Date.now() - 2 * 86_400_000).toISOString();
    await putStat({
      guildId: guild,
      family: commands.path,
      id: 1,
      time: old,
      memberId: null,
      channelId: null,
      record: { id: 1, guild_id: guild, user_id: snowflake(), command: 'old', timestamp: old },
    });
    const month = ok(await fetchStats(service, commands, { guild_id: guild, days: 30, limit: 3 }));
    expect(month.stats.map((s: { command: string }) => s.command)).toEqual(['new1', 'new0', 'old']);
    const day = ok(await fetchStats(service, commands, { guild_id: guild, days: 1, limit: 3, cursor: month.next_cursor }));
    expect(day).toEqual({ stats: [], next_cursor: null });
  });

  it('checks days and limit', async () => {
    const guild = await statsGuild(service);
    for (const query of [{ days: 0 }, { days: 31 }, { limit: 0 }, { limit: 1001 }] as Record<string, number>[]) {
      const res = await fetchStats(service, commands, { guild_id: guild, ...query });
      expect(res.status, JSON.stringify(query)).toBe(422);
    }
    expect((await fetchStats(service, commands, { guild_id: guild, days: 'two' as unknown as number })).status).toBe(400);
    expect(ok(await fetchStats(service, commands, { guild_id: guild, days: 30, limit: 1000 })).stats).toEqual([]);
  });
});

describe('sessions', () => {
  it('ends presence records whose activity is no longer listed, and keeps ongoing ones open', async () => {
    const presence = byPath('activities/presence');
    const guild = await statsGuild(service);
    const member = snowflake();
    const record = (names: string[]) =>
      recordStat(service, presence, {
        guild_id: guild,
        presence_user_id: member,
        activities: names.map((name) => ({ activity_type: 0, name, details: null, state: null })),
      });
    ok(await record(['Chess', 'Music']));
    ok(await record(['Chess']));
    ok(await record(['Chess', 'Go']));
    const stats = ok(await fetchStats(service, presence, { guild_id: guild, user_id: member })).stats as { presence_name: string; end_time: string | null }[];
    const byName = Object.fromEntries(stats.map((s) => [s.presence_name, s.end_time]));
    expect(stats).toHaveLength(3);
    expect(byName.Chess).toBeNull();
    expect(byName.Go).toBeNull();
    expect(byName.Music).not.toBeNull();
  });

  it('opens a voice session on join and closes it on leave; a leave with none open stores nothing', async () => {
    const voice = byPath('voice');
    const guild = await statsGuild(service);
    const [member, channel] = [snowflake(), snowflake()];
    ok(await recordStat(service, voice, { guild_id: guild, channel_id: channel, joined_member_id: member }));
    const closed = ok(await recordStat(service, voice, { guild_id: guild, channel_id: channel, left_member_id: member }, 'PUT'));
    expect(closed.message).toMatch(/Closed/);
    const again = ok(await recordStat(service, voice, { guild_id: guild, channel_id: channel, left_member_id: member }, 'PUT'));
    expect(again.message).toMatch(/Nothing stored/);
    const stats = ok(await fetchStats(service, voice, { guild_id: guild })).stats;
    expect(stats).toHaveLength(1);
    expect(stats[0].left_at).not.toBeNull();
  });
});

describe('privacy and settings delete', () => {
  it('counts and removes every record naming the member, across families', async () => {
    const guild = await statsGuild(service);
    const [member, other] = [snowflake(), snowflake()];
    const named = FAMILIES.filter((f) => ['user', 'member', 'messages', 'commands', 'trigger-hit'].includes(f.shape.kind));
    for (const family of named) ok(await recordStat(service, family, sample(family, guild, member, snowflake()).body));
    ok(await recordStat(service, byPath('messages/sent'), sample(byPath('messages/sent'), guild, other, snowflake()).body));
    const query = { guild_id: guild, privacy_member_id: member };
    expect(ok(await service.call('GET', `${SS}/privacy/get-user-entries`, { query }))).toEqual({
      username: 0,
      display_name: 0,
      global_name: 0,
      nickname: 0,
      id: named.length,
    });
    const removed = ok(await service.call('DELETE', `${SS}/privacy/delete-user-entries`, { body: query }));
    expect(removed.message).toContain(`${named.length} statistic records`);
    expect(ok(await service.call('GET', `${SS}/privacy/get-user-entries`, { query })).id).toBe(0);
    expect(ok(await fetchStats(service, byPath('messages/sent'), { guild_id: guild })).stats).toHaveLength(1);
  });

  it("ends the member's open presence and voice sessions, and only theirs", async () => {
    const guild = await statsGuild(service);
    const [member, other, channel] = [snowflake(), snowflake(), snowflake()];
    const [presence, voice] = [byPath('activities/presence'), byPath('voice')];
    for (const who of [member, other]) {
      ok(await recordStat(service, presence, sample(presence, guild, who, channel).body));
      ok(await recordStat(service, voice, sample(voice, guild, who, channel).body));
    }
    ok(await service.call('DELETE', `${SS}/privacy/delete-user-entries`, { body: { guild_id: guild, privacy_member_id: member } }));
    const leave = async (who: string) => ok(await recordStat(service, voice, { guild_id: guild, channel_id: channel, left_member_id: who }, 'PUT')).message;
    expect(await leave(member)).toMatch(/^Nothing stored/);
    expect(await leave(other)).toMatch(/^Closed voice session/);
    expect(ok(await recordStat(service, presence, sample(presence, guild, member, channel).body)).message).toMatch(/^Recorded 1 started/);
    expect(ok(await recordStat(service, presence, sample(presence, guild, other, channel).body)).message).toMatch(/^Nothing changed/);
  });

  it('deletes every record and open session of the guild with the settings, leaving the module disabled and other guilds alone', async () => {
    const [guild, neighbour] = [await statsGuild(service), await statsGuild(service)];
    const [member, channel] = [snowflake(), snowflake()];
    for (const family of FAMILIES) {
      ok(await recordStat(service, family, sample(family, guild, member, channel).body));
      ok(await recordStat(service, family, sample(family, neighbour, member, channel).body));
    }
    const deleted = ok(await service.call('DELETE', `${SS}/settings`, { body: { guild_id: guild } }));
    expect(deleted).toMatchObject({ counters: [], starboard_entries: [] });
    expect(deleted.settings.stats_messages_enabled).toBe(true);
    expect(ok(await service.call('GET', `${SS}/status`, { query: { guild_id: guild } })).status).toBe(false);
    ok(await service.call('POST', `${SS}/enable`, { body: { guild_id: guild } }));
    for (const family of FAMILIES) {
      expect(ok(await fetchStats(service, family, { guild_id: guild })).stats, family.path).toEqual([]);
      expect(ok(await fetchStats(service, family, { guild_id: neighbour })).stats, family.path).toHaveLength(1);
    }
    // The open presence and voice sessions went too: a leave finds none open, and the same presence starts anew.
    const presence = byPath('activities/presence');
    const voice = byPath('voice');
    const leave = async (where: string) =>
      ok(await recordStat(service, voice, { guild_id: where, channel_id: channel, left_member_id: member }, 'PUT')).message;
    expect(await leave(guild)).toMatch(/^Nothing stored/);
    expect(await leave(neighbour)).toMatch(/^Closed voice session/);
    expect(ok(await recordStat(service, presence, sample(presence, guild, member, channel).body)).message).toMatch(/^Recorded 1 started/);
    expect(ok(await recordStat(service, presence, sample(presence, neighbour, member, channel).body)).message).toMatch(/^Nothing changed/);
  });
});

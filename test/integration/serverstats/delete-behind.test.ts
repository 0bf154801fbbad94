import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '#functions/serverstats/families.js';
import { getPurge } from '#functions/serverstats/purge.js';
import { countAll } from '#test/helpers/table.js';
import { type TestService, snowflake, startTestService } from '#test/helpers/local.js';
import { SS, fetchStats, ok, recordStat, sample, statsGuild } from './helpers.js';
import { seedMessages } from './seed.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());
afterEach(() => {
  delete process.env.SERVERSTATS_PURGE_PAGES;
});

const sent = FAMILIES.find((f) => f.path === 'messages/sent')!;
const voice = FAMILIES.find((f) => f.path === 'voice')!;

/** How many items the guild's statistics partition holds (records, open sessions, a pending delete). */
async function stored(guild: string): Promise<number> {
  return countAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `STAT#${guild}` }, ConsistentRead: true });
}

const privacyCount = async (guild: string, member: string) =>
  ok(await service.call('GET', `${SS}/privacy/get-user-entries`, { query: { guild_id: guild, privacy_member_id: member } })).id as number;

/** Watches the pending delete until it is gone; answers the distinct places its removal stood at. */
async function watchRemoval(guild: string, timeoutMs = 60_000): Promise<Set<string>> {
  const places = new Set<string>();
  const until = Date.now() + timeoutMs;
  for (;;) {
    const purge = await getPurge(guild);
    if (!purge) return places;
    if (purge.after) places.add(purge.after);
    if (Date.now() > until) throw new Error(`the delete of guild ${guild} did not finish within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a serverstats settings delete of many records', { timeout: 90_000 }, () => {
  it('answers at once, reads as reset, and removes the records behind the answer over several runs', async () => {
    process.env.SERVERSTATS_PURGE_PAGES = '1';
    const guild = await statsGuild(service);
    const member = snowflake();
    await seedMessages(guild, member, 5000);
    expect(await privacyCount(guild, member)).toBe(5000);

    const deleted = ok(await service.call('DELETE', `${SS}/settings`, { body: { guild_id: guild } }));
    expect(deleted).toMatchObject({ counters: [], starboard_entries: [] });
    expect(deleted.message).toContain('being removed behind this answer');
    // Answered before the records are gone, and the guild reads as reset at once.
    expect(await stored(guild)).toBeGreaterThan(1000);
    expect(ok(await service.call('GET', `${SS}/status`, { query: { guild_id: guild } })).status).toBe(false);
    expect(await privacyCount(guild, member)).toBe(0);
    ok(await service.call('POST', `${SS}/enable`, { body: { guild_id: guild } }));
    const fetched = ok(await fetchStats(service, sent, { guild_id: guild, limit: 1000 }));
    expect(fetched.stats).toEqual([]);
    expect(fetched.next_cursor).toBeNull();

    // 5000 records, at most 2000 a page and one page a run: the removal moves on run by run, then ends.
    const places = await watchRemoval(guild);
    expect(places.size).toBeGreaterThanOrEqual(1);
    expect(await stored(guild)).toBe(0);
  });

  it('keeps what is recorded while the removal runs, and drops sessions opened before the delete', async () => {
    process.env.SERVERSTATS_PURGE_PAGES = '1';
    const guild = await statsGuild(service);
    const member = snowflake();
    const channel = snowflake();
    await seedMessages(guild, member, 4500);
    // A voice session open across the delete.
    ok(await recordStat(service, voice, sample(voice, guild, member, channel).body));

    ok(await service.call('DELETE', `${SS}/settings`, { body: { guild_id: guild } }));
    ok(await service.call('POST', `${SS}/enable`, { body: { guild_id: guild } }));
    // The old session is not open any more: its leave stores nothing.
    const left = ok(await recordStat(service, voice, { guild_id: guild, channel_id: channel, left_member_id: member }, 'PUT'));
    expect(left.message).toMatch(/^Nothing stored/);
    // New records, written while the old ones are being removed.
    ok(await recordStat(service, sent, sample(sent, guild, member, channel).body));
    ok(await recordStat(service, voice, sample(voice, guild, member, channel).body));

    await watchRemoval(guild);
    const messages = ok(await fetchStats(service, sent, { guild_id: guild, limit: 1000 })).stats;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ author_id: member, channel_id: channel });
    expect(ok(await fetchStats(service, voice, { guild_id: guild })).stats).toHaveLength(1);
    expect(await privacyCount(guild, member)).toBe(2);
    // The new session is still open after the removal.
    const closed = ok(await recordStat(service, voice, { guild_id: guild, channel_id: channel, left_member_id: member }, 'PUT'));
    expect(closed.message).toMatch(/^Closed voice session/);
    // The records, the closed session's record, and nothing else: the old records and the old session are gone.
    expect(await stored(guild)).toBe(2);
  });

  it('starts the removal again when the guild is deleted again while it runs, and still ends', async () => {
    process.env.SERVERSTATS_PURGE_PAGES = '1';
    const guild = await statsGuild(service);
    const member = snowflake();
    await seedMessages(guild, member, 4500);
    ok(await service.call('DELETE', `${SS}/settings`, { body: { guild_id: guild } }));
    ok(await service.call('POST', `${SS}/enable`, { body: { guild_id: guild } }));
    ok(await recordStat(service, sent, sample(sent, guild, member, snowflake()).body));
    ok(await service.call('DELETE', `${SS}/settings`, { body: { guild_id: guild } }));
    // The record written between the two deletes goes with the second.
    await watchRemoval(guild);
    expect(await stored(guild)).toBe(0);
  });
});

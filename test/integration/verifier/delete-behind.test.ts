/**
 * A verifier settings delete of a guild with thousands of entries (behaviour
 * §15): the answer comes at once with the newest 1000 entries and their
 * count, the guild reads as reset from then on, the entries and their
 * pointers go behind the answer in bounded runs on the scheduler, and a
 * verification made meanwhile (even by a member whose old entry is being
 * removed) stays. Entries are seeded straight into the table.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Verification, entryItems } from '#functions/verifier/store.js';
import { entrySweep } from '#functions/verifier/sweep.js';
import { db } from '#shared/db/client.js';
import { countAll } from '#test/helpers/table.js';
import { tableName } from '#shared/db/table.js';
import { mintOrderedId } from '#shared/ids.js';
import { ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { putAll } from '#test/helpers/seed.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());
afterEach(() => {
  delete process.env.VERIFIER_SWEEP_PAGES;
});

const VE = '/modules/verifier';

/** `n` open entries of the last hour, one member each, stored as prompts store them; answers them oldest first. */
async function seedEntries(guild: string, n: number): Promise<Verification[]> {
  const start = Date.now() - 3_600_000;
  const entries = Array.from(
    { length: n },
    (_, i): Verification => ({
      id: 1_000_000 + i,
      guild_id: guild,
      verifier_id: mintOrderedId(start + i),
      user_id: snowflake(),
      requester_id: null,
      is_verified: false,
      verify_message_id: null,
      verify_channel_id: null,
      timestamp: new Date(start + i).toISOString(),
      verified_at: null,
      failed_attempts: 0,
      _token_hash: null,
      _token_issued_at: 0,
      _token_expires_at: 0,
      _locked_until: 0,
      _version: 1,
    }),
  );
  await putAll(entries.flatMap((entry) => Object.values(entryItems(entry))));
  return entries;
}

/** How many items of a kind the module keeps in the guild's partition (entries, members' pointers). */
async function stored(guild: string, prefix: 'VERIFICATION#' | 'VERIFYMEMBER#'): Promise<number> {
  return countAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': `G#${guild}`, ':p': prefix },
    ConsistentRead: true,
  });
}

async function removalEnds(guild: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (await entrySweep.get(guild)) {
    if (Date.now() > until) throw new Error(`the entries of guild ${guild} were not removed within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const create = (guild: string, member: string) =>
  service.call('POST', `${VE}/event/create-verification`, { body: { guild_id: guild, requester: member }, headers: { 'x-acting-user-id': member } });
const handle = (member: string, verifierId: string) =>
  service.call('POST', `${VE}/event/handle-verification`, { body: { verifier_id: verifierId }, headers: { 'x-acting-user-id': member } });
const privacyCount = async (guild: string, member: string) =>
  ok(await service.call('GET', `${VE}/privacy/get-user-entries`, { query: { guild_id: guild, privacy_member_id: member } })).id as number;

describe('a verifier settings delete of many entries', { timeout: 90_000 }, () => {
  it('answers at once with the newest 1000 entries and the count, reads as reset, and removes the entries behind the answer', async () => {
    process.env.VERIFIER_SWEEP_PAGES = '1';
    const guild = snowflake();
    const channel = await sandboxOf(service).channelIn(guild);
    ok(await service.call('POST', `${VE}/enable`, { body: { guild_id: guild } }));
    const entries = await seedEntries(guild, 3000);
    const newest = entries[2999]!;
    const oldest = entries[0]!;
    expect(await privacyCount(guild, newest.user_id)).toBe(1);

    const deleted = ok(await service.call('DELETE', `${VE}/settings`, { body: { guild_id: guild } }));
    expect(deleted.entries).toHaveLength(1000);
    expect(deleted.entries_total).toBe(3000);
    expect(deleted.entries[0]).toMatchObject({ verifier_id: newest.verifier_id, user_id: newest.user_id, is_verified: false });
    // Answered before the entries are gone, and the guild reads as reset at once.
    expect(await stored(guild, 'VERIFYMEMBER#')).toBeGreaterThan(0);
    expect(ok(await service.call('GET', `${VE}/status`, { query: { guild_id: guild } })).status).toBe(false);
    const enabled = ok(await service.call('POST', `${VE}/enable`, { body: { guild_id: guild } }));
    expect(enabled).toMatchObject({ entries: [], entries_total: 0 });
    expect(ok(await service.call('GET', `${VE}/entries`, { query: { guild_id: guild } }))).toEqual({ entries: [], next_cursor: null });
    expect((await service.call('GET', `${VE}/entries/${oldest.verifier_id}`, { query: { guild_id: guild } })).status).toBe(404);
    expect((await handle(oldest.user_id, oldest.verifier_id)).status).toBe(404);
    expect(await privacyCount(guild, newest.user_id)).toBe(0);

    // A seeded member is prompted again while the old entries are being removed: a new entry, which stays.
    ok(await service.call('PUT', `${VE}/settings`, { body: { guild_id: guild, verifier_channel: channel } }));
    const prompted = ok(await create(guild, newest.user_id));
    expect(prompted.verifier_id).not.toBe(newest.verifier_id);
    expect(ok(await handle(newest.user_id, prompted.verifier_id)).message).toContain('is verified');

    await removalEnds(guild);
    expect(await stored(guild, 'VERIFICATION#')).toBe(1);
    expect(await stored(guild, 'VERIFYMEMBER#')).toBe(1);
    const idPointer = await db().send(
      new GetCommand({ TableName: tableName(), Key: { pk: `VERIFIERID#${oldest.verifier_id}`, sk: 'ENTRY' }, ConsistentRead: true }),
    );
    expect(idPointer.Item).toBeUndefined();
    expect(ok(await service.call('GET', `${VE}/entries/${prompted.verifier_id}`, { query: { guild_id: guild } })).entry).toMatchObject({
      user_id: newest.user_id,
      is_verified: true,
    });
    expect(await privacyCount(guild, newest.user_id)).toBe(1);
  });

  it('answers only the entries stored since an earlier delete still being removed, and still ends', async () => {
    process.env.VERIFIER_SWEEP_PAGES = '1';
    const guild = snowflake();
    ok(await service.call('POST', `${VE}/enable`, { body: { guild_id: guild } }));
    await seedEntries(guild, 2000);
    expect(ok(await service.call('DELETE', `${VE}/settings`, { body: { guild_id: guild } })).entries_total).toBe(2000);
    expect(ok(await service.call('DELETE', `${VE}/settings`, { body: { guild_id: guild } }))).toMatchObject({ settings: null, entries: [], entries_total: 0 });
    await removalEnds(guild);
    expect(await stored(guild, 'VERIFICATION#')).toBe(0);
    expect(await stored(guild, 'VERIFYMEMBER#')).toBe(0);
  });
});

/**
 * Lists that grow without bound in the answers that are not their own
 * route (behaviour §15): the enable/disable snapshot and the settings
 * delete show the newest 1000 records and the list's count, and stay under
 * 1 MiB however many records the guild has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UseEntity } from '#functions/invite-tracker/store.js';
import { StarboardEntity } from '#functions/serverstats/starboard-store.js';
import { VerificationEntity } from '#functions/verifier/store.js';
import { mintOrderedId } from '#shared/ids.js';
import { type TestService, ok, snowflake, startTestService } from '#test/helpers/local.js';
import { putAll } from '#test/helpers/seed.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const SEEDED = 3000;
const MiB = 1024 * 1024;
const start = Date.now() - 86_400_000;
/** The i-th record's time: later for a larger i, so record SEEDED is the newest. */
const at = (i: number) => new Date(start + i * 1000).toISOString();
/** The i-th record's ID-like sort part: zero-padded so key order is time order. */
const nth = (i: number) => String(1_300_000_000_000_000_000n + BigInt(i));

interface Case {
  module: string;
  list: string;
  seed: (guild: string) => Record<string, unknown>[];
  /** Which seeded record (1..SEEDED) a listed record is. */
  index: (record: Record<string, unknown>) => number;
}

const cases: Case[] = [
  {
    module: 'invite-tracker',
    list: 'stats_uses',
    seed: (guild) =>
      Array.from({ length: SEEDED }, (_, n) => {
        const i = n + 1;
        const use = { id: i, guild_id: guild, invite_id: 'abc', member_id: nth(i), timestamp: at(i), channel_id: null, inviter_id: '1', has_left: false };
        return UseEntity.item(use, { ...use, attribution: 'exact', counted: true });
      }),
    index: (record) => Number(record.id),
  },
  {
    module: 'verifier',
    list: 'entries',
    seed: (guild) =>
      Array.from({ length: SEEDED }, (_, n) => {
        const i = n + 1;
        // Verifier IDs are minted from their time (the settings delete reads entries since it by that order).
        const verifierId = mintOrderedId(Date.parse(at(i)));
        return VerificationEntity.item(
          { guildId: guild, verifierId },
          {
            id: i,
            guild_id: guild,
            verifier_id: verifierId,
            user_id: nth(i),
            requester_id: null,
            is_verified: false,
            verify_message_id: null,
            verify_channel_id: null,
            timestamp: at(i),
            verified_at: null,
            failed_attempts: 0,
            _token_hash: null,
            _token_issued_at: 0,
            _token_expires_at: 0,
            _locked_until: 0,
            _version: 1,
          },
        );
      }),
    index: (record) => Number(record.id),
  },
  {
    module: 'serverstats',
    list: 'starboard_entries',
    seed: (guild) =>
      Array.from({ length: SEEDED }, (_, n) => {
        const i = n + 1;
        const messageId = nth(i);
        return StarboardEntity.item(
          { guildId: guild, messageId },
          {
            id: i,
            guild_id: guild,
            original_message_id: messageId,
            original_channel_id: '100',
            starboard_message_id: nth(i + SEEDED),
            star_count: 3,
            monitoring_start: at(i),
            _author_id: '1',
            _claim: '',
            _claimed_at: 0,
          },
        );
      }),
    index: (record) => Number(record.id),
  },
];

/** Asserts an answer shows the newest 1000 of the seeded records, newest first, their count, and is under 1 MiB. */
function expectBounded(text: string, data: Record<string, any>, list: string, index: Case['index']) {
  expect(Buffer.byteLength(text)).toBeLessThan(MiB);
  expect(data[`${list}_total`]).toBe(SEEDED);
  const shown = (data[list] as Record<string, unknown>[]).map(index);
  expect(shown).toHaveLength(1000);
  expect(shown[0]).toBe(SEEDED);
  expect(shown.at(-1)).toBe(SEEDED - 999);
}

describe.each(cases)('$module with $list of 3000 records', { timeout: 60_000 }, ({ module, list, seed, index }) => {
  it('shows the newest 1000 and the count in its snapshots and its settings delete', async () => {
    const guild = snowflake();
    const base = `/modules/${module}`;
    await putAll(seed(guild));

    const enabled = await service.call('POST', `${base}/enable`, { body: { guild_id: guild } });
    expectBounded(enabled.text, ok(enabled), list, index);
    const disabled = await service.call('POST', `${base}/disable`, { body: { guild_id: guild } });
    expectBounded(disabled.text, ok(disabled), list, index);

    const deleted = await service.call('DELETE', `${base}/settings`, { body: { guild_id: guild } });
    expectBounded(deleted.text, ok(deleted), list, index);

    // The removal covered all of them, not only those shown: enabling again shows none.
    const again = ok(await service.call('POST', `${base}/enable`, { body: { guild_id: guild } }));
    expect(again[list]).toEqual([]);
    expect(again[`${list}_total`]).toBe(0);
  });
});

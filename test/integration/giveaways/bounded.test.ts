/**
 * Giveaway answers stay under 1 MiB however many giveaways a guild keeps
 * and however large each is (behaviour §15): the snapshot and the settings
 * delete show the newest 1000 that fit and `giveaways_total`; a page of the
 * list ends early when its giveaways would pass the answer's bytes, and its
 * `next_cursor` leads on to every giveaway exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GiveawayEntity } from '#functions/giveaways/store.js';
import { mintOrderedId } from '#shared/ids.js';
import { type TestService, ok, snowflake, startTestService } from '#test/helpers/local.js';
import { putAll } from '#test/helpers/seed.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const MiB = 1024 * 1024;
/** One character that JSON writes as six bytes (`\u0001`): text of it is the widest a stored text of that length can answer. */
const WIDE = '\u0001';
const start = Date.now() - 30 * 86_400_000;

/**
 * The i-th giveaway of a guild (a larger i is newer), ended: `wide`, at the
 * limits of its text (prize 256, description 1000 characters) with every
 * round a reroll allows (11 of 50 winners); else small.
 */
function giveawayItem(guild: string, i: number, wide: boolean) {
  const at = start + i * 60_000;
  const entryId = mintOrderedId(at);
  const winners = (round: number) => Array.from({ length: wide ? 50 : 1 }, (_, w) => String(1_300_000_000_000_000_000n + BigInt(round * 100 + w)));
  const rounds = Array.from({ length: wide ? 11 : 1 }, (_, r) => ({ round: r + 1, winners: winners(r), drawn_at: new Date(at).toISOString() }));
  return GiveawayEntity.item(
    { guildId: guild, entryId },
    {
      id: i,
      guild_id: guild,
      entry_id: entryId,
      giveaway_id: entryId,
      channel_id: '100',
      message_id: '200',
      owner_id: '300',
      prize: wide ? WIDE.repeat(256) : `Prize ${i}`,
      description: wide ? WIDE.repeat(1000) : null,
      winner_count: wide ? 50 : 1,
      status: 'ended',
      end_time: new Date(at).toISOString(),
      delete_at: new Date(Date.now() + 86_400_000).toISOString(),
      edited_with_results: false,
      participant_count: 0,
      participants_hash: null,
      winners: rounds.at(-1)!.winners.join(','),
      seed_hash: 'a'.repeat(64),
      seed: 'b'.repeat(64),
      created_at: new Date(at).toISOString(),
      rounds,
      _seed: 'b'.repeat(64),
      _version: 1,
    },
  );
}

/** The giveaways of a guild, `count` of them, the newest `wide` of them at their limits. */
async function seedGuild(count: number, wide: number): Promise<string> {
  const guild = snowflake();
  await putAll(Array.from({ length: count }, (_, n) => giveawayItem(guild, n + 1, n + 1 > count - wide)));
  return guild;
}

/** The seeded number of each giveaway listed. */
const ids = (records: { id: number }[]) => records.map((g) => g.id);
/** The newest `n` of `count` seeded, newest first. */
const newest = (count: number, n: number) => Array.from({ length: n }, (_, i) => count - i);

describe('giveaways that grow without bound', { timeout: 180_000 }, () => {
  it('shows the newest 1000 of 1010 and the count in the snapshots and the settings delete', async () => {
    const guild = await seedGuild(1010, 0);
    for (const path of ['/modules/giveaways/enable', '/modules/giveaways/disable']) {
      const res = await service.call('POST', path, { body: { guild_id: guild } });
      const data = ok(res);
      expect(Buffer.byteLength(res.text)).toBeLessThan(MiB);
      expect(data.giveaways_total).toBe(1010);
      expect(ids(data.giveaways)).toEqual(newest(1010, 1000));
    }
    const deleted = await service.call('DELETE', '/modules/giveaways/settings', { body: { guild_id: guild } });
    const data = ok(deleted);
    expect(Buffer.byteLength(deleted.text)).toBeLessThan(MiB);
    expect(data.giveaways_total).toBe(1010);
    expect(ids(data.giveaways)).toEqual(newest(1010, 1000));
    // Every giveaway went, not only those shown.
    const again = ok(await service.call('POST', '/modules/giveaways/enable', { body: { guild_id: guild } }));
    expect(again.giveaways).toEqual([]);
    expect(again.giveaways_total).toBe(0);
  });

  it('shows only the newest that fit when giveaways are at their limits', async () => {
    const guild = await seedGuild(80, 80);
    const enabled = await service.call('POST', '/modules/giveaways/enable', { body: { guild_id: guild } });
    const snapshot = ok(enabled);
    expect(Buffer.byteLength(enabled.text)).toBeLessThan(MiB);
    expect(snapshot.giveaways_total).toBe(80);
    expect(snapshot.giveaways.length).toBeGreaterThan(0);
    expect(snapshot.giveaways.length).toBeLessThan(80);
    expect(ids(snapshot.giveaways)).toEqual(newest(80, snapshot.giveaways.length));

    const deleted = await service.call('DELETE', '/modules/giveaways/settings', { body: { guild_id: guild } });
    const removed = ok(deleted);
    expect(Buffer.byteLength(deleted.text)).toBeLessThan(MiB);
    expect(removed.giveaways_total).toBe(80);
    expect(removed.giveaways.length).toBeGreaterThan(0);
    expect(removed.giveaways.length).toBeLessThan(80);
    expect(ids(removed.giveaways)).toEqual(newest(80, removed.giveaways.length));
  });

  it('ends a page of 50 giveaways at their limits early, and its cursors lead to every giveaway once', async () => {
    const guild = await seedGuild(120, 120);
    ok(await service.call('POST', '/modules/giveaways/enable', { body: { guild_id: guild } }));
    const seen: number[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await service.call('GET', '/modules/giveaways/entries', {
        query: { guild_id: guild, page_size: '50', ...(cursor === null ? {} : { cursor }) },
      });
      const page = ok(res);
      expect(Buffer.byteLength(res.text)).toBeLessThan(MiB);
      expect(page.total).toBe(120);
      expect(page.page).toBe(++pages);
      sizes.push(page.entries.length);
      seen.push(...ids(page.entries));
      cursor = page.next_cursor;
    } while (cursor !== null && pages < 20);
    expect(sizes[0]).toBeGreaterThan(0);
    expect(sizes[0]).toBeLessThan(50);
    expect(seen).toEqual(newest(120, 120));
  });
});

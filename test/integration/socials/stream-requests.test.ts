/**
 * What watching stream accounts costs the stream service (behaviour §13,
 * "Feed items are data"): one request per 100 accounts an interval, so 22
 * accounts cost one request and 250 three, not one per shard. Its own
 * service, so the accounts counted are this test's only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollAllStreams } from '#functions/socials/polling.js';
import { insertSource, putWatcher } from '#functions/socials/store.js';
import { type TestService, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { ok, socialGuild, sourcesOf, unique, watch } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

/** `count` more stream accounts watched through the API, 25 to a guild (the most a guild may watch of a kind). */
async function watchAccounts(count: number): Promise<void> {
  const sources = sourcesOf(service);
  for (let left = count; left > 0; left -= 25) {
    const guild = await socialGuild(service);
    const channel = await sandboxOf(service).channelIn(guild);
    const accounts = Array.from({ length: Math.min(25, left) }, () => unique('acct'));
    await Promise.all(accounts.map((account) => sources.account(account)));
    // A few at a time: the guild's count of entries is one item every create updates.
    for (let i = 0; i < accounts.length; i += 5)
      await Promise.all(accounts.slice(i, i + 5).map(async (account) => ok(await watch(service, guild, 'stream', account, channel))));
  }
}

/** `count` more stream accounts watched, written straight to the table as a create leaves them (a source and its watcher), to keep the test short. */
async function storeAccounts(count: number): Promise<void> {
  const guild = await socialGuild(service);
  const channel = await sandboxOf(service).channelIn(guild);
  const accounts = Array.from({ length: count }, () => unique('acct'));
  for (let i = 0; i < accounts.length; i += 25) {
    await Promise.all(
      accounts.slice(i, i + 25).map(async (ident) => {
        await insertSource({
          kind: 'stream',
          ident,
          identifier: ident,
          seen: [],
          latest: null,
          etag: null,
          last_modified: null,
          failures: 0,
          next_poll_at: null,
          uploads_playlist_id: null,
          live_session: null,
          live_since: null,
          version: 1,
        });
        await putWatcher('stream', ident, { guild_id: guild, channel_id: channel, mention_everyone: false });
      }),
    );
  }
}

/** The requests the stream service gets for one poll of every watched account. */
async function requestsOfOnePoll(): Promise<number> {
  const sources = sourcesOf(service);
  const before = (await sources.requests()).stream ?? 0;
  await pollAllStreams();
  return ((await sources.requests()).stream ?? 0) - before;
}

describe('polling stream accounts', () => {
  it('asks the stream service once per 100 accounts an interval: once for 22, three times for 250', { timeout: 180_000 }, async () => {
    await watchAccounts(22);
    expect(await requestsOfOnePoll()).toBe(1);
    await storeAccounts(250 - 22);
    expect(await requestsOfOnePoll()).toBe(3);
  });
});

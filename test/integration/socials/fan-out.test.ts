/**
 * Fan-out in bounded, parallel work: a new item for many channels goes out
 * in units (socials.announce jobs run by local mode's queues), one failing
 * channel holds back no other and gets the item once it recovers; stream
 * accounts are polled in shards, reading every page of live streams; and a
 * send counts as the live session it announces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS_PER_UNIT } from '#functions/socials/fan-out.js';
import { pollAllStreams, pollSource, pollStreams } from '#functions/socials/polling.js';
import { streamShardOf } from '#functions/socials/store.js';
import { type TestService, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { eventually } from '../polls/helpers.js';
import { SO, announced, ok, posted, shownIn, socialGuild, sourcesOf, unique, watch } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

/** `count` channels watching a forum community, over as many guilds as the 25 entries a guild may have need. */
async function watchers(community: string, count: number): Promise<string[]> {
  const channels: string[] = [];
  let guild = '';
  for (let i = 0; i < count; i++) {
    if (i % 25 === 0) guild = await socialGuild(service);
    const channel = await sandboxOf(service).channelIn(guild);
    ok(await watch(service, guild, 'forum', community, channel));
    channels.push(channel);
  }
  return channels;
}

describe('announcing to many channels', () => {
  it('posts a new item once in each of 60 channels (3 units), and a channel failing for now gets it once it recovers', async () => {
    const sources = sourcesOf(service);
    const community = unique('many');
    await sources.forum(community);
    const channels = await watchers(community, 60);
    expect(channels.length).toBeGreaterThan(2 * CHANNELS_PER_UNIT);
    const sick = channels[30]!;
    await sandboxOf(service).fault({ method: 'POST', path: `^/channels/${sick}/messages$`, status: 500, times: 1000 });
    await sources.post(community, 'For everyone');
    await pollSource('forum', community);
    const healthy = channels.filter((c) => c !== sick);
    await eventually(async () => (await Promise.all(healthy.map((c) => posted(service, c)))).every((m) => m.length === 1), 15_000, 'every healthy channel');
    expect(await posted(service, sick)).toHaveLength(0);
    await sandboxOf(service).clearFaults();
    // The unit with the failing channel runs again; the channels it had posted to answer "already".
    await eventually(async () => (await posted(service, sick)).length === 1, 40_000, 'the recovered channel');
    await announced();
    for (const channel of channels) expect(await posted(service, channel), channel).toHaveLength(1);
  }, 90_000);

  it('announces each of several new items in every channel, oldest first', async () => {
    const sources = sourcesOf(service);
    const community = unique('order');
    await sources.forum(community);
    const channels = await watchers(community, 30);
    for (const title of ['One', 'Two', 'Three']) await sources.post(community, title);
    await pollSource('forum', community);
    await pollSource('forum', community);
    for (const channel of channels) {
      const shown = await shownIn(service, channel);
      expect(shown.map((c) => c.split('\n')[0])).toEqual(['**One**', '**Two**', '**Three**']);
    }
  });
});

describe('streams', () => {
  it('announces every live account of a shard when more than one page of the stream service is live', async () => {
    const sources = sourcesOf(service);
    const guilds = [await socialGuild(service), await socialGuild(service)];
    // 30 accounts of one shard: one request for all of them, whose live streams are more than the service's default page of 20.
    const accounts: string[] = [];
    while (accounts.length < 30) {
      const account = unique('pg');
      if (streamShardOf(account) === 3) accounts.push(account);
    }
    const channels: string[] = [];
    for (const [i, account] of accounts.entries()) {
      await sources.account(account);
      const guild = guilds[Math.floor(i / 25)]!;
      const channel = await sandboxOf(service).channelIn(guild);
      ok(await watch(service, guild, 'stream', account, channel));
      channels.push(channel);
    }
    for (const account of accounts) await sources.goLive(account, `${account} live`);
    await pollStreams(3);
    await pollStreams(3);
    for (const [i, channel] of channels.entries())
      expect(await shownIn(service, channel)).toEqual([`🔴 **${accounts[i]} live**\n${sources.origin}/sources/stream-web/${accounts[i]}`]);
  });

  it('takes a send as the live session it announces: the account going live then posts nothing more', async () => {
    const sources = sourcesOf(service);
    const account = unique('sent');
    await sources.account(account);
    const guild = await socialGuild(service);
    const channel = await sandboxOf(service).channelIn(guild);
    ok(await watch(service, guild, 'stream', account, channel));
    expect(ok(await service.call('POST', `${SO}/entries/send/stream`, { body: { stream_account: account } })).message).toBe('Announced to 1 channel.');
    await sources.goLive(account, 'Same session');
    await pollAllStreams();
    await pollAllStreams();
    expect(await shownIn(service, channel)).toHaveLength(1);
    // A later session is a new item.
    await sources.goOffline(account);
    await sources.goLive(account, 'Next session');
    await pollAllStreams();
    expect((await shownIn(service, channel)).at(-1)).toContain('**Next session**');
    expect(await shownIn(service, channel)).toHaveLength(2);
  });
});

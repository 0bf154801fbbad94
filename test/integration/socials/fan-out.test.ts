/**
 * Fan-out in bounded, parallel work: a new item for many channels goes out
 * in units (socials.announce jobs run by local mode's queues), one failing
 * channel holds back no other and gets the item once it recovers; stream
 * accounts are polled in shards, reading every page of live streams; and a
 * send counts as the live session it announces. A unit delivered twice, or
 * run while another run of it holds its claims, posts nothing twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAnnounceUnit } from '#functions/socials/announce.js';
import type { SourceItem } from '#functions/socials/feed/parse.js';
import { type AnnounceUnit, CHANNELS_PER_UNIT } from '#functions/socials/fan-out.js';
import { normalizeLink } from '#functions/socials/kinds.js';
import { pollAllStreams, pollSource } from '#functions/socials/polling.js';
import { claimDelivery, itemMark, linkMark } from '#functions/socials/store.js';
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

describe('a unit of an announcement', () => {
  /** A unit posting a new forum post of a fresh community to `count` channels of one guild, as a poll hands it out. */
  async function unitFor(count: number): Promise<{ unit: AnnounceUnit & { batch: string; part: number }; channels: string[]; item: SourceItem }> {
    const community = unique('unit');
    const guild = await socialGuild(service);
    const channels: string[] = [];
    for (let i = 0; i < count; i++) channels.push(await sandboxOf(service).channelIn(guild));
    const link = `https://forum.example/r/${community}/comments/${unique('p')}`;
    const item: SourceItem = { key: `u:${link}`, title: 'Posted once', description: null, link, published: Date.now() };
    const targets = channels.map((channel_id) => ({ channel_id, mention_everyone: false }));
    return { unit: { kind: 'forum', ident: community, items: [item], index: 0, targets, batch: unique('b'), part: 0 }, channels, item };
  }
  /** The posts the service asked the platform to make in a channel. */
  const postsTo = async (channel: string) =>
    (await sandboxOf(service).requests()).filter((r) => r.method === 'POST' && r.path === `/channels/${channel}/messages`).length;

  it('delivered twice at once and again afterwards, posts once in each channel; a refusing channel is asked once and holds back no other', async () => {
    const { unit, channels } = await unitFor(CHANNELS_PER_UNIT);
    const refusing = channels[7]!;
    await sandboxOf(service).fault({ method: 'POST', path: `^/channels/${refusing}/messages$`, status: 403, times: 1000 });
    // A redelivery racing the first delivery, then one after both are done: the second and third find every claim taken.
    await Promise.all([runAnnounceUnit(unit), runAnnounceUnit(unit)]);
    await runAnnounceUnit(unit);
    for (const channel of channels.filter((c) => c !== refusing)) {
      const messages = await posted(service, channel);
      expect(
        messages.map((m) => m.content.split('\n')[0]),
        channel,
      ).toEqual(['**Posted once**']);
      // Claimed before posting: no run posted twice, not even a post the platform would have matched by its nonce.
      expect(await postsTo(channel), channel).toBe(1);
    }
    expect(await posted(service, refusing)).toHaveLength(0);
    // The refusal is recorded: the channel is not asked again.
    expect(await postsTo(refusing)).toBe(1);
  });

  it('takes over a claim whose run stopped before posting once its lease has passed, and leaves one still under way alone', async () => {
    const { unit, channels, item } = await unitFor(3);
    const [stopped, underWay, fresh] = channels as [string, string, string];
    const marks = [itemMark('forum', unit.ident, item.key), linkMark(normalizeLink(item.link!))];
    // A run that claimed and then stopped (its lease already passed), and a run still posting (its lease a minute long).
    expect(await claimDelivery(stopped, marks, -1)).toBe(true);
    expect(await claimDelivery(underWay, marks, 60_000)).toBe(true);
    await runAnnounceUnit(unit);
    await runAnnounceUnit(unit);
    expect(await posted(service, stopped)).toHaveLength(1);
    expect(await posted(service, fresh)).toHaveLength(1);
    expect(await posted(service, underWay)).toHaveLength(0);
    expect(await postsTo(underWay)).toBe(0);
  });
});

describe('streams', () => {
  it('announces every live account when more than one page of the stream service is live', async () => {
    const sources = sourcesOf(service);
    const guilds = [await socialGuild(service), await socialGuild(service)];
    // 30 accounts: one request for all of them, whose live streams are more than the service's default page of 20.
    const accounts = Array.from({ length: 30 }, () => unique('pg'));
    const channels: string[] = [];
    for (const [i, account] of accounts.entries()) {
      await sources.account(account);
      const guild = guilds[Math.floor(i / 25)]!;
      const channel = await sandboxOf(service).channelIn(guild);
      ok(await watch(service, guild, 'stream', account, channel));
      channels.push(channel);
    }
    for (const account of accounts) await sources.goLive(account, `${account} live`);
    await pollAllStreams();
    await pollAllStreams();
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

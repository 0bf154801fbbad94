/**
 * Announcements: new items once per channel, oldest first, never the
 * baseline, whatever delivers them (polls, overlapping polls, redelivery,
 * sends, two feeds with one link), with back-off and conditional GET.
 * Polls run here by calling the job's work directly, in this process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollAllStreams, pollSource } from '#functions/socials/polling.js';
import { type TestService, snowflake, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { eventually } from '../polls/helpers.js';
import { SO, announced, ok, posted, shownIn, socialGuild, sourcesOf, unique, watch } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

describe('polling', () => {
  it('announces new items oldest first to every channel of every guild watching, never the baseline', async () => {
    const sources = sourcesOf(service);
    const name = unique('feed');
    const url = await sources.feed(name);
    await sources.entry(name, { title: 'Baseline', guid: 'b1', link: 'https://example.org/b1' });
    const [g1, g2] = [await socialGuild(service), await socialGuild(service)];
    const [c1, c2, c3] = [snowflake(), snowflake(), snowflake()];
    ok(await watch(service, g1, 'rss', url, c1));
    ok(await watch(service, g1, 'rss', url, c2, true));
    ok(
      await watch(
        service,
        g2,
        'rss',
        url
          .toUpperCase()
          .replace('HTTP://', 'http://')
          .replace(/\/SOURCES\/FEEDS\/.*$/, `/sources/feeds/${name}`),
        c3,
      ),
    );
    await sources.entry(name, { title: 'First', guid: 'n1', link: 'https://example.org/n1', description: 'one' });
    await sources.entry(name, { title: 'Second', guid: 'n2', link: 'https://example.org/n2' });

    await pollSource('rss', url);
    expect(await shownIn(service, c1)).toEqual(['**First**\none\nhttps://example.org/n1', '**Second**\nhttps://example.org/n2']);
    expect(await shownIn(service, c3)).toEqual(await shownIn(service, c1));
    await announced();
    const [everyone] = await posted(service, c2);
    expect(everyone!.content.startsWith('@everyone\n')).toBe(true);
    // The platform's own view: the mention pings only where allowed_mentions lets it.
    expect(everyone!.mention_everyone).toBe(true);
    expect((await posted(service, c1))[0]!.mention_everyone).toBe(false);

    await pollSource('rss', url);
    expect(await shownIn(service, c1)).toHaveLength(2);
  });

  it('makes one message per channel under overlapping polls and a redelivered poll', async () => {
    const sources = sourcesOf(service);
    const community = unique('race');
    await sources.forum(community);
    const guild = await socialGuild(service);
    const channel = snowflake();
    ok(await watch(service, guild, 'forum', community, channel));
    await sources.post(community, 'Breaking');
    await Promise.all(Array.from({ length: 6 }, () => pollSource('forum', community)));
    await pollSource('forum', community);
    expect(await shownIn(service, channel)).toHaveLength(1);
    expect((await shownIn(service, channel))[0]).toContain('**Breaking**');
  });

  it('posts an item once per channel whether it comes by a send or a poll, and a link two feeds carry once', async () => {
    const sources = sourcesOf(service);
    const handle = `@${unique('vids')}`;
    const { uploads_playlist_id } = await sources.channel(handle);
    const guild = await socialGuild(service);
    const channel = snowflake();
    ok(await watch(service, guild, 'video', handle, channel));
    const { video_id } = await sources.upload(handle, 'New video');
    const sent = ok(await service.call('POST', `${SO}/entries/send/video`, { body: { uploads_playlist_id, video_id, video_title: 'New video' } }));
    expect(sent.message).toBe('Announced to 1 channel.');
    await pollSource('video', handle.toLowerCase());
    expect(await shownIn(service, channel)).toHaveLength(1);
    expect(ok(await service.call('POST', `${SO}/entries/send/video`, { body: { uploads_playlist_id, video_id, video_title: 'New video' } })).message).toContain(
      '0 channels (1 already had it)',
    );

    const [a, b] = [unique('fa'), unique('fb')];
    const [urlA, urlB] = [await sources.feed(a), await sources.feed(b, 'atom')];
    const shared = snowflake();
    ok(await watch(service, guild, 'rss', urlA, shared));
    ok(await watch(service, guild, 'rss', urlB, shared));
    await sources.entry(a, { title: 'Same story', guid: 'a-1', link: 'https://example.org/story?utm_source=feed-a' });
    await sources.entry(b, { title: 'Same story', guid: 'b-1', link: 'https://example.org/story#comments' });
    await pollSource('rss', urlA);
    await pollSource('rss', urlB);
    expect(await shownIn(service, shared)).toHaveLength(1);
  });

  it('skips a channel the platform refuses and still announces to the others', async () => {
    const sources = sourcesOf(service);
    const community = unique('skip');
    await sources.forum(community);
    const guild = await socialGuild(service);
    const [gone, fine] = [snowflake(), snowflake()];
    ok(await watch(service, guild, 'forum', community, gone));
    ok(await watch(service, guild, 'forum', community, fine));
    await sandboxOf(service).post(gone, '42', { content: 'make the channel exist' });
    await sandboxOf(service).deleteChannel(gone);
    await sources.post(community, 'Still announced');
    await pollSource('forum', community);
    expect(await shownIn(service, fine)).toHaveLength(1);
  });

  it('announces to guilds with the module and the component on only', async () => {
    const sources = sourcesOf(service);
    const community = unique('off');
    await sources.forum(community);
    const [on, off] = [await socialGuild(service), await socialGuild(service)];
    const [c1, c2] = [snowflake(), snowflake()];
    ok(await watch(service, on, 'forum', community, c1));
    ok(await watch(service, off, 'forum', community, c2));
    ok(
      await service.call('PUT', `${SO}/settings`, {
        body: { guild_id: off, monitor_forum: false, monitor_rss: true, monitor_stream: true, monitor_video: true },
      }),
    );
    await sources.post(community, 'Only for some');
    await pollSource('forum', community);
    expect(await shownIn(service, c1)).toHaveLength(1);
    expect(await shownIn(service, c2)).toHaveLength(0);
  });
});

describe('sources that misbehave', () => {
  it('backs off 5 min x 2^(failures-1) on errors, garbage, huge bodies, redirect loops and timeouts, and recovers', async () => {
    const sources = sourcesOf(service);
    const name = unique('bad');
    const url = await sources.feed(name);
    const guild = await socialGuild(service);
    const channel = snowflake();
    ok(await watch(service, guild, 'rss', url, channel));
    const entry = async () => ok(await service.call('GET', `${SO}/entries/rss`, { query: { guild_id: guild } })).entries[0];
    process.env.SOURCE_TIMEOUT_MS = '300';
    try {
      const modes = [{ mode: 'status', status: 503 }, { mode: 'garbage' }, { mode: 'huge' }, { mode: 'redirect' }, { mode: 'timeout' }];
      // A redirect loop keeps redirecting once started (see the sandbox sources).
      for (const [i, fault] of modes.entries()) {
        await sources.fault({ source: 'feed', times: 1, ...fault });
        const before = Date.now();
        const next = await pollSource('rss', url);
        const failures = i + 1;
        expect((await entry()).failures, JSON.stringify(fault)).toBe(failures);
        const wait = next! - before;
        const expected = Math.min(24 * 3600_000, 5 * 60_000 * 2 ** (failures - 1));
        expect(wait).toBeGreaterThanOrEqual(expected - 1000);
        expect(wait).toBeLessThanOrEqual(expected + 5000);
      }
    } finally {
      delete process.env.SOURCE_TIMEOUT_MS;
    }
    await sources.entry(name, { title: 'After the storm', guid: 'ok-1' });
    await pollSource('rss', url);
    expect((await entry()).failures).toBe(0);
    expect(await shownIn(service, channel)).toEqual(['**After the storm**']);
  });

  it('asks a feed with If-None-Match and takes a 304 as nothing new', async () => {
    const sources = sourcesOf(service);
    const name = unique('etag');
    const url = await sources.feed(name);
    const guild = await socialGuild(service);
    const channel = snowflake();
    ok(await watch(service, guild, 'rss', url, channel));
    const before = (await sources.requests())['feed-304'] ?? 0;
    await pollSource('rss', url);
    await pollSource('rss', url);
    expect(((await sources.requests())['feed-304'] ?? 0) - before).toBe(2);
    await sources.entry(name, { title: 'Fresh', guid: 'f1' });
    await pollSource('rss', url);
    expect(await shownIn(service, channel)).toEqual(['**Fresh**']);
  });
});

describe('streams', () => {
  it('announces an account going live once per session, 100 accounts a request', async () => {
    const sources = sourcesOf(service);
    const account = unique('live');
    await sources.account(account);
    const guild = await socialGuild(service);
    const channel = snowflake();
    ok(await watch(service, guild, 'stream', account, channel));
    await sources.goLive(account, 'Speedrun');
    await pollAllStreams();
    await pollAllStreams();
    expect(await shownIn(service, channel)).toEqual([`🔴 **Speedrun**\n${sources.origin}/sources/stream-web/${account}`]);
    // A send for the same live session within 30 minutes is the same item.
    expect(ok(await service.call('POST', `${SO}/entries/send/stream`, { body: { stream_account: account } })).message).toContain('0 channels');
    await sources.goOffline(account);
    await sources.goLive(account, 'Second stream');
    await pollAllStreams();
    expect(await shownIn(service, channel)).toHaveLength(2);
  });
});

describe('the scheduler', () => {
  it('polls a watched source by itself', async () => {
    const previous = process.env.SOCIALS_POLL_SECONDS;
    process.env.SOCIALS_POLL_SECONDS = '1';
    try {
      const sources = sourcesOf(service);
      const community = unique('sched');
      await sources.forum(community);
      const guild = await socialGuild(service);
      const channel = snowflake();
      ok(await watch(service, guild, 'forum', community, channel));
      await sources.post(community, 'Found by the poller');
      await eventually(async () => (await shownIn(service, channel)).length === 1, 15_000, 'the scheduled poll');
    } finally {
      if (previous === undefined) delete process.env.SOCIALS_POLL_SECONDS;
      else process.env.SOCIALS_POLL_SECONDS = previous;
    }
  });
});

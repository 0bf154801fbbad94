/** Socials entries, settings and the handler operations, against the sandbox sources. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { SO, ok, socialGuild, sourcesOf, unique, watch } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

describe('entries', () => {
  it('watches a forum community: checks it once, refuses duplicates by any spelling, lists newest first, deletes in every channel', async () => {
    const sources = sourcesOf(service);
    const community = unique('Com');
    await sources.forum(community);
    const guild = await socialGuild(service);
    const [c1, c2] = [snowflake(), snowflake()];
    const first = ok(await watch(service, guild, 'forum', community, c1)).entry;
    expect(first).toMatchObject({ guild_id: guild, community, target_channel_id: c1, mention_everyone: false, failures: 0 });
    expect(Date.parse(first.next_poll_at)).toBeGreaterThan(Date.now());

    const again = await watch(service, guild, 'forum', community.toUpperCase(), c1);
    expect(again.status).toBe(422);
    expect(errorOf(again).message).toContain("'community'");
    const second = ok(await watch(service, guild, 'forum', community, c2, true)).entry;

    const list = ok(await service.call('GET', `${SO}/entries/forum`, { query: { guild_id: guild } }));
    expect(list).toMatchObject({ page: 1, page_size: 10, total: 2 });
    expect(list.entries.map((e: { id: number }) => e.id)).toEqual([second.id, first.id]);

    const deleted = ok(await service.call('DELETE', `${SO}/entries/forum`, { body: { guild_id: guild, community: community.toLowerCase() } }));
    expect(deleted.entry.id).toBe(second.id);
    expect(deleted.entries).toHaveLength(2);
    expect(ok(await service.call('GET', `${SO}/entries/forum`, { query: { guild_id: guild } })).total).toBe(0);
    expect((await service.call('DELETE', `${SO}/entries/forum`, { body: { guild_id: guild, community } })).status).toBe(404);
  });

  it('names what the source answered when it does not exist or is not a feed', async () => {
    const guild = await socialGuild(service);
    const sources = sourcesOf(service);
    const cases: [Parameters<typeof watch>[2], string, RegExp][] = [
      ['forum', unique('nope'), /404/],
      ['stream', unique('nobody'), /does not exist/],
      ['video', `@${unique('none')}`, /does not exist/],
      ['rss', `${sources.origin}/sources/feeds/${unique('missing')}`, /404/],
      ['rss', `${sources.origin}/sources/forum-web/r/x`, /not a feed/],
    ];
    for (const [kind, identifier, answer] of cases) {
      const res = await watch(service, guild, kind, identifier, snowflake());
      expect(res.status, `${kind} ${identifier}`).toBe(422);
      expect(errorOf(res).message).toMatch(answer);
    }
    for (const kind of ['forum', 'stream', 'rss', 'video'] as const) {
      expect(ok(await service.call('GET', `${SO}/entries/${kind}`, { query: { guild_id: guild } })).total).toBe(0);
    }
  });

  it('checks identifiers: wrong type 400, wrong form 422', async () => {
    const guild = await socialGuild(service);
    const bad: [Parameters<typeof watch>[2], unknown][] = [
      ['forum', 'has space'],
      ['forum', 'x'.repeat(22)],
      ['stream', 'ab'],
      ['video', 'no-at-sign'],
      ['rss', 'ftp://example.org/feed'],
    ];
    for (const [kind, identifier] of bad) expect((await watch(service, guild, kind, identifier as string, snowflake())).status, String(identifier)).toBe(422);
    expect((await watch(service, guild, 'forum', 42 as unknown as string, snowflake())).status).toBe(400);
    const noChannel = await service.call('POST', `${SO}/entries/forum`, { looseBody: { guild_id: guild, community: 'abc', mention_everyone: false } });
    expect(noChannel.status).toBe(400);
  });

  it('keeps 25 entries of a kind a guild at most, also when created at once', async () => {
    const account = unique('acct');
    await sourcesOf(service).account(account);
    const guild = await socialGuild(service);
    const results = await Promise.all(Array.from({ length: 28 }, () => watch(service, guild, 'stream', account, snowflake())));
    expect(results.filter((r) => r.status === 200)).toHaveLength(25);
    expect(results.filter((r) => r.status === 422)).toHaveLength(3);
    expect(ok(await service.call('GET', `${SO}/entries/stream`, { query: { guild_id: guild, page_size: 100 } })).total).toBe(25);
  });

  it('records a video channel with its uploads playlist and newest video, and an rss feed with its newest entry', async () => {
    const sources = sourcesOf(service);
    const handle = `@${unique('vid')}`;
    const { uploads_playlist_id } = await sources.channel(handle);
    const { video_id } = await sources.upload(handle, 'Old upload');
    const feedName = unique('feed');
    const feedUrl = await sources.feed(feedName, 'atom');
    await sources.entry(feedName, { title: 'Old post', link: 'https://example.org/old', guid: 'old-1' });
    const guild = await socialGuild(service);
    expect(ok(await watch(service, guild, 'video', handle, snowflake())).entry).toMatchObject({
      video_channel_handle: handle,
      uploads_playlist_id,
      latest_video_id: video_id,
    });
    expect(ok(await watch(service, guild, 'rss', feedUrl, snowflake())).entry).toMatchObject({ rss_feed: feedUrl, latest_entry: 'https://example.org/old' });
    expect(ok(await service.call('GET', `${SO}/handler/monitors/video/get-uploads-playlist-id`, { query: { channel_handle: handle } }))).toEqual({
      uploads_playlist_id,
    });
    const unknown = await service.call('GET', `${SO}/handler/monitors/video/get-uploads-playlist-id`, { query: { channel_handle: '@nobody-here' } });
    expect(unknown.status).toBe(422);
  });

  it('answers 409 while disabled, 403 for another guild and for internal routes with a guild key', async () => {
    const guild = snowflake();
    expect((await watch(service, guild, 'forum', 'abc', snowflake())).status).toBe(409);
    const enabled = await socialGuild(service);
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: enabled } })).api_key.secret;
    expect((await service.call('GET', `${SO}/entries/forum`, { token: key, query: { guild_id: enabled } })).status).toBe(200);
    expect((await service.call('GET', `${SO}/entries/forum`, { token: key, query: { guild_id: guild } })).status).toBe(403);
    expect((await service.call('POST', `${SO}/entries/send/forum`, { token: key, body: { community: 'abc', url: 'https://example.org/p' } })).status).toBe(403);
  });
});

describe('refresh filters', () => {
  it('keeps a watched source polled (add) and forgets it once no guild watches it (remove)', async () => {
    const sources = sourcesOf(service);
    const community = unique('filter');
    await sources.forum(community);
    const account = unique('filt');
    await sources.account(account);
    const guild = await socialGuild(service);
    const filter = (kind: 'forum' | 'stream', action_type: string, name: string) =>
      service.call('POST', kind === 'forum' ? `${SO}/handler/monitor/forum/refresh-filter` : `${SO}/handler/monitors/stream/refresh-filter`, {
        looseBody: kind === 'forum' ? { action_type, community: name } : { action_type, stream_account: name },
      });
    expect(ok(await filter('forum', 'add', community)).message).toContain('No guild watches');
    ok(await watch(service, guild, 'forum', community, snowflake()));
    ok(await watch(service, guild, 'stream', account, snowflake()));
    expect(ok(await filter('forum', 'add', community)).message).toContain('is polled for 1 channel');
    expect(ok(await filter('stream', 'remove', account)).message).toContain('still polled');
    ok(await service.call('DELETE', `${SO}/entries/forum`, { body: { guild_id: guild, community } }));
    expect(ok(await filter('forum', 'remove', community)).message).toContain('no longer polled');
    expect((await filter('forum', 'toggle', community)).status).toBe(422);
    expect((await filter('forum', 7 as unknown as string, community)).status).toBe(400);
  });
});

describe('settings, memes and privacy', () => {
  it('changes settings and deletes everything with them', async () => {
    const community = unique('set');
    await sourcesOf(service).forum(community);
    const guild = await socialGuild(service);
    const settings = ok(await service.call('GET', `${SO}/settings`, { query: { guild_id: guild } })).settings;
    expect(settings).toMatchObject({ guild_id: guild, monitor_forum: true, monitor_rss: true, monitor_stream: true, monitor_video: true });
    expect((await service.call('PUT', `${SO}/settings`, { looseBody: { guild_id: guild, monitor_forum: false } })).status).toBe(400);
    ok(await watch(service, guild, 'forum', community, snowflake()));
    const deleted = ok(await service.call('DELETE', `${SO}/settings/delete`, { body: { guild_id: guild } }));
    expect(deleted.entries.forum).toHaveLength(1);
    expect(deleted.entries).toMatchObject({ stream: [], rss: [], video: [] });
    expect(ok(await service.call('GET', `${SO}/status`, { query: { guild_id: guild } })).status).toBe(false);
    // A new start has its whole allowance again: the entry counts went with the entries.
    ok(await service.call('POST', `${SO}/enable`, { body: { guild_id: guild } }));
    ok(
      await service.call('PUT', `${SO}/settings`, {
        body: { guild_id: guild, monitor_forum: true, monitor_rss: true, monitor_stream: true, monitor_video: true },
      }),
    );
    expect(ok(await service.call('GET', `${SO}/entries/forum`, { query: { guild_id: guild } })).total).toBe(0);
    const again = await Promise.all(Array.from({ length: 25 }, () => watch(service, guild, 'forum', community, snowflake())));
    expect(again.filter((r) => r.status === 200)).toHaveLength(25);
  });

  it('gets a safe meme (skipping nsfw and spoilers) and puts one on a message', async () => {
    const sources = sourcesOf(service);
    await sources.meme({ title: 'Not this', url: 'https://example.org/a.png', nsfw: true });
    await sources.meme({ title: 'Nor this', url: 'https://example.org/b.png', spoiler: true });
    await sources.meme({ title: 'This one', url: 'https://example.org/c.png', postLink: 'https://example.org/post/c' });
    expect(ok(await service.call('GET', `${SO}/handler/meme/get`))).toEqual({
      title: 'This one',
      url: 'https://example.org/c.png',
      post_link: 'https://example.org/post/c',
    });

    const guild = await socialGuild(service);
    const channel = await sandboxOf(service).channelIn(guild);
    const message = await sandboxOf(service).post(channel, '1000000000000000001', { content: 'loading a meme' });
    await sources.meme({ title: 'Cat', url: 'https://example.org/cat.png', postLink: 'https://example.org/post/cat' });
    ok(await service.call('POST', `${SO}/meme/send`, { body: { guild_id: guild, channel_id: channel, message_id: message.id } }));
    const edited = await sandboxOf(service).message(channel, message.id);
    expect(edited!.embeds[0]).toMatchObject({ title: 'Cat', url: 'https://example.org/post/cat', image: { url: 'https://example.org/cat.png' } });
    const missing = await service.call('POST', `${SO}/meme/send`, { body: { guild_id: guild, channel_id: channel, message_id: snowflake() } });
    expect(missing.status).toBe(422);
    for (let i = 0; i < 3; i++) await sources.meme({ title: 'nsfw', url: 'https://example.org/x.png', nsfw: true });
    expect((await service.call('GET', `${SO}/handler/meme/get`)).status).toBe(502);
  });

  it('keeps no member data, and says so', async () => {
    const guild = await socialGuild(service);
    const query = { guild_id: guild, privacy_member_id: snowflake() };
    expect(ok(await service.call('GET', `${SO}/privacy/get-user-entries`, { query }))).toEqual({
      username: 0,
      display_name: 0,
      global_name: 0,
      nickname: 0,
      id: 0,
    });
    expect(ok(await service.call('DELETE', `${SO}/privacy/delete-user-entries`, { body: query })).message).toContain('keeps no member data');
  });
});

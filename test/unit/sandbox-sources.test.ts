import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestService, startTestService } from '../helpers/local.js';

let service: TestService;
let origin: string;

beforeAll(async () => {
  service = await startTestService();
  origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
});
afterAll(() => service.stop());
beforeEach(async () => {
  expect((await fetch(`${origin}/_sandbox/reset`, { method: 'POST' })).status).toBeLessThan(300);
});

/** A control route of the sources; answers the status and the JSON body (if any). */
async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${origin}/_sandbox/sources${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** A source's JSON answer, loosely typed for the shape assertions. */
const getJson = async (url: string, init?: RequestInit): Promise<any> => (await fetch(url, init)).json();
const env = (name: string) => process.env[name]!;
const streamHeaders = () => ({ 'Client-Id': env('STREAM_API_CLIENT_ID'), Authorization: `Bearer ${env('STREAM_API_TOKEN')}` });

describe('local mode points the sources at the sandbox', () => {
  it('sets every source variable to a sandbox URL or credential', () => {
    for (const name of [
      'FORUM_API_BASE_URL',
      'FORUM_WEB_BASE_URL',
      'STREAM_API_BASE_URL',
      'STREAM_WEB_BASE_URL',
      'VIDEO_API_BASE_URL',
      'VIDEO_WEB_BASE_URL',
      'MEME_API_URL',
    ]) {
      expect(env(name).startsWith(`${origin}/sources/`)).toBe(true);
    }
    expect(env('STREAM_API_CLIENT_ID')).not.toBe('');
    expect(env('STREAM_API_TOKEN')).not.toBe('');
    expect(env('VIDEO_API_KEY')).not.toBe('');
  });
});

describe('forum', () => {
  it('lists a community newest first in the listing shape, and 404 for an unknown one', async () => {
    expect((await control('POST', '/forum/Gaming')).status).toBe(204);
    const first = await control('POST', '/forum/Gaming/posts', { title: 'First' });
    const second = await control('POST', '/forum/Gaming/posts', { id: 'abc123', title: 'Second', url: 'https://example.com/x' });
    expect(first.status).toBe(200);
    expect(second.body).toMatchObject({
      id: 'abc123',
      title: 'Second',
      url: 'https://example.com/x',
      permalink: '/r/Gaming/comments/abc123/post/',
      over_18: false,
    });

    const response = await fetch(`${env('FORUM_API_BASE_URL')}/r/gaming/new.json?limit=25`);
    expect(response.status).toBe(200);
    const listing: any = await response.json();
    expect(listing.kind).toBe('Listing');
    expect(listing.data.children.map((c: any) => c.kind)).toEqual(['t3', 't3']);
    expect(listing.data.children.map((c: any) => c.data.id)).toEqual(['abc123', first.body.id]);
    const post = listing.data.children[1].data;
    expect(Object.keys(post).sort()).toEqual(['created_utc', 'id', 'over_18', 'permalink', 'title', 'url']);
    expect(typeof post.created_utc).toBe('number');

    const page = await fetch(`${env('FORUM_WEB_BASE_URL')}${post.permalink}`);
    expect(page.status).toBe(200);
    expect((await fetch(`${env('FORUM_API_BASE_URL')}/r/nowhere/new.json?limit=25`)).status).toBe(404);
  });

  it('refuses a post to an unknown community and a post without a title', async () => {
    expect((await control('POST', '/forum/none/posts', { title: 'x' })).status).toBe(400);
    await control('POST', '/forum/a');
    expect((await control('POST', '/forum/a/posts', {})).status).toBe(400);
  });
});

describe('stream', () => {
  it('needs Client-Id and a Bearer token', async () => {
    expect((await fetch(`${env('STREAM_API_BASE_URL')}/helix/users?login=a`)).status).toBe(401);
    expect((await fetch(`${env('STREAM_API_BASE_URL')}/helix/users?login=a`, { headers: { 'Client-Id': 'x' } })).status).toBe(401);
  });

  it('finds users, lists the live ones, and ends streams', async () => {
    await control('POST', '/stream/Alice');
    await control('POST', '/stream/bob');
    const users = await getJson(`${env('STREAM_API_BASE_URL')}/helix/users?login=alice`, { headers: streamHeaders() });
    expect(users.data).toEqual([{ id: expect.any(String), login: 'alice', display_name: 'Alice' }]);
    expect(await getJson(`${env('STREAM_API_BASE_URL')}/helix/users?login=nobody`, { headers: streamHeaders() })).toEqual({ data: [] });

    const live = await control('POST', '/stream/alice/live', { title: 'Speedrun' });
    expect(live.status).toBe(200);
    const streams = await getJson(`${env('STREAM_API_BASE_URL')}/helix/streams?user_login=alice&user_login=bob`, { headers: streamHeaders() });
    expect(streams.data).toEqual([
      {
        id: live.body.id,
        user_login: 'alice',
        user_name: 'Alice',
        title: 'Speedrun',
        game_name: expect.any(String),
        started_at: live.body.started_at,
        type: 'live',
      },
    ]);

    const again = await control('POST', '/stream/alice/live', { title: 'Again' });
    expect(again.body.id).not.toBe(live.body.id);
    expect((await control('DELETE', '/stream/alice/live')).status).toBe(204);
    expect(await getJson(`${env('STREAM_API_BASE_URL')}/helix/streams?user_login=alice`, { headers: streamHeaders() })).toEqual({ data: [], pagination: {} });
  });

  it('answers live streams in pages of `first` (default 20), with a cursor while more follow', async () => {
    const logins = Array.from({ length: 23 }, (_, i) => `acct${i}`);
    for (const login of logins) {
      await control('POST', `/stream/${login}`);
      await control('POST', `/stream/${login}/live`, { title: login });
    }
    const query = logins.map((l) => `user_login=${l}`).join('&');
    const first = await getJson(`${env('STREAM_API_BASE_URL')}/helix/streams?${query}`, { headers: streamHeaders() });
    expect(first.data).toHaveLength(20);
    const rest = await getJson(`${env('STREAM_API_BASE_URL')}/helix/streams?${query}&after=${first.pagination.cursor}`, { headers: streamHeaders() });
    expect(rest.data.map((s: { user_login: string }) => s.user_login)).toEqual(['acct20', 'acct21', 'acct22']);
    expect(rest.pagination).toEqual({});
    const pages = await getJson(`${env('STREAM_API_BASE_URL')}/helix/streams?${query}&first=10`, { headers: streamHeaders() });
    expect(pages.data).toHaveLength(10);
    expect(pages.pagination.cursor).toEqual(expect.any(String));
  });

  it('refuses more than 100 accounts in one request', async () => {
    const query = (n: number) => Array.from({ length: n }, (_, i) => `user_login=a${i}`).join('&');
    expect((await fetch(`${env('STREAM_API_BASE_URL')}/helix/streams?${query(100)}`, { headers: streamHeaders() })).status).toBe(200);
    expect((await fetch(`${env('STREAM_API_BASE_URL')}/helix/streams?${query(101)}`, { headers: streamHeaders() })).status).toBe(400);
  });
});

describe('video', () => {
  it('finds a channel by handle (any case, with or without @) and lists its uploads newest first', async () => {
    const channel = await control('POST', '/video/@Cooking');
    expect(channel.status).toBe(200);
    expect(channel.body.uploads_playlist_id).toMatch(/^UU/);
    const key = env('VIDEO_API_KEY');
    for (const handle of ['@cooking', '@COOKING']) {
      const found = await getJson(`${env('VIDEO_API_BASE_URL')}/youtube/v3/channels?part=contentDetails&forHandle=${encodeURIComponent(handle)}&key=${key}`);
      expect(found.items).toEqual([{ id: channel.body.channel_id, contentDetails: { relatedPlaylists: { uploads: channel.body.uploads_playlist_id } } }]);
    }
    const unknown = await getJson(`${env('VIDEO_API_BASE_URL')}/youtube/v3/channels?part=contentDetails&forHandle=%40nobody&key=${key}`);
    expect(unknown.items ?? []).toEqual([]);

    const one = await control('POST', '/video/@cooking/videos', { title: 'Soup' });
    const two = await control('POST', '/video/@cooking/videos', { title: 'Bread' });
    const list = await getJson(
      `${env('VIDEO_API_BASE_URL')}/youtube/v3/playlistItems?part=snippet&playlistId=${channel.body.uploads_playlist_id}&maxResults=10&key=${key}`,
    );
    expect(list.items.map((i: any) => i.snippet.resourceId.videoId)).toEqual([two.body.video_id, one.body.video_id]);
    expect(list.items[1].snippet).toEqual({
      title: 'Soup',
      publishedAt: expect.any(String),
      resourceId: { kind: 'youtube#video', videoId: one.body.video_id },
    });
    expect((await fetch(`${env('VIDEO_API_BASE_URL')}/youtube/v3/playlistItems?part=snippet&playlistId=UUnone&maxResults=10&key=${key}`)).status).toBe(404);
  });

  it('refuses a request without a key', async () => {
    expect((await fetch(`${env('VIDEO_API_BASE_URL')}/youtube/v3/channels?part=contentDetails&forHandle=%40x`)).status).toBe(403);
  });
});

describe('feeds', () => {
  it('serves RSS 2.0 newest first, escaped, with conditional GET', async () => {
    const created = await control('POST', '/feeds', { name: 'news', format: 'rss', title: 'News & <more>' });
    expect(created.status).toBe(200);
    const url = created.body.url as string;
    expect(url).toBe(`${origin}/sources/feeds/news`);
    await control('POST', '/feeds/news/entries', { title: 'Old', guid: 'g1' });
    await control('POST', '/feeds/news/entries', { title: 'New <b> & "q"', description: 'd', link: 'https://example.com/?a=1&b=2', guid: 'g2' });

    const response = await fetch(url);
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain('<rss version="2.0"><channel><title>News &amp; &lt;more&gt;</title>');
    expect(body.indexOf('g2')).toBeLessThan(body.indexOf('g1'));
    expect(body).toContain(
      '<title>New &lt;b&gt; &amp; &quot;q&quot;</title><link>https://example.com/?a=1&amp;b=2</link><description>d</description><pubDate>',
    );
    const etag = response.headers.get('etag')!;
    const lastModified = response.headers.get('last-modified')!;
    expect(etag).toBeTruthy();
    expect(lastModified).toBeTruthy();

    await control('DELETE', '/requests');
    expect((await fetch(url, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect((await fetch(url, { headers: { 'If-Modified-Since': lastModified } })).status).toBe(304);
    expect((await fetch(url, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    expect((await control('GET', '/requests')).body).toEqual({ feed: 3, 'feed-304': 2 });

    await control('POST', '/feeds/news/entries', { title: 'Newer' });
    expect((await fetch(url, { headers: { 'If-None-Match': etag } })).status).toBe(200);
  });

  it('serves Atom', async () => {
    const { body } = await control('POST', '/feeds', { name: 'blog', format: 'atom', title: 'Blog' });
    await control('POST', '/feeds/blog/entries', { title: 'Post', description: 'Sum', link: 'https://example.com/p', guid: 'urn:1' });
    const text = await (await fetch(body.url)).text();
    expect(text).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(text).toContain('<entry><id>urn:1</id><title>Post</title><link rel="alternate" href="https://example.com/p"/><summary>Sum</summary><published>');
    expect(body.url).toBe(`${origin}/sources/feeds/blog`);
    expect(await (await fetch(`${origin}/sources/feeds/blog.atom`)).text()).toContain('<entry><id>urn:1</id>');
    expect((await fetch(`${origin}/sources/feeds/none.rss`)).status).toBe(404);
  });
});

describe('meme', () => {
  it('answers queued memes in order, then a safe one', async () => {
    await control('POST', '/memes', { title: 'One', url: 'https://example.com/1.png', nsfw: true });
    await control('POST', '/memes', { title: 'Two', url: 'https://example.com/2.png', postLink: 'https://example.com/p2' });
    const one = await getJson(env('MEME_API_URL'));
    expect(one).toMatchObject({ title: 'One', url: 'https://example.com/1.png', postLink: 'https://example.com/1.png', nsfw: true, spoiler: false });
    expect(await getJson(env('MEME_API_URL'))).toMatchObject({ title: 'Two', postLink: 'https://example.com/p2', nsfw: false });
    const safe = await getJson(env('MEME_API_URL'));
    expect(safe).toMatchObject({ title: expect.any(String), url: expect.any(String), postLink: expect.any(String), nsfw: false, spoiler: false });
  });
});

describe('misbehaviour and counts', () => {
  beforeEach(async () => {
    await control('POST', '/forum/f');
  });
  const forum = (init?: RequestInit) => fetch(`${env('FORUM_API_BASE_URL')}/r/f/new.json?limit=25`, init);

  it('answers a status code for the next N requests', async () => {
    await control('POST', '/faults', { source: 'forum', mode: 'status', status: 503, times: 2 });
    expect((await forum()).status).toBe(503);
    expect((await forum()).status).toBe(503);
    expect((await forum()).status).toBe(200);
  });

  it('sends garbage, a huge body, a 304, a redirect loop', async () => {
    await control('POST', '/faults', { source: 'forum', mode: 'garbage' });
    const garbage = await (await forum()).text();
    expect(() => JSON.parse(garbage)).toThrow();
    await control('POST', '/faults', { source: 'forum', mode: 'huge' });
    expect((await (await forum()).arrayBuffer()).byteLength).toBeGreaterThan(5 * 1024 * 1024);
    await control('POST', '/faults', { source: 'forum', mode: 'not-modified' });
    expect((await forum()).status).toBe(304);
    await control('POST', '/faults', { source: 'forum', mode: 'redirect' });
    await expect(forum()).rejects.toThrow();
  });

  it('hangs on a timeout until the client gives up', async () => {
    await control('POST', '/faults', { source: 'forum', mode: 'timeout' });
    await expect(forum({ signal: AbortSignal.timeout(200) })).rejects.toThrow();
    expect((await forum()).status).toBe(200);
  });

  it('refuses an unknown source or mode', async () => {
    expect((await control('POST', '/faults', { source: 'nope', mode: 'status' })).status).toBe(400);
    expect((await control('POST', '/faults', { source: 'forum', mode: 'nope' })).status).toBe(400);
  });

  it('counts requests per source, resets them, and the sandbox reset forgets everything', async () => {
    await forum();
    await fetch(`${env('STREAM_API_BASE_URL')}/helix/users?login=a`, { headers: streamHeaders() });
    await fetch(env('MEME_API_URL'));
    expect((await control('GET', '/requests')).body).toEqual({ forum: 1, stream: 1, meme: 1 });
    expect((await control('DELETE', '/requests')).status).toBe(204);
    expect((await control('GET', '/requests')).body).toEqual({});
    await forum();
    await fetch(`${origin}/_sandbox/reset`, { method: 'POST' });
    expect((await control('GET', '/requests')).body).toEqual({});
    expect((await forum()).status).toBe(404);
  });
});

describe("the socials module's source client against the sandbox", () => {
  it('reads every source and turns every misbehaviour into a SourceError', async () => {
    const { SourceError, feedItems, fetchMeme, forumItems, liveStreams, uploadsPlaylistOf, videoItems } = await import('#functions/socials/reach/sources.js');
    await control('POST', '/forum/f');
    await control('POST', '/forum/f/posts', { id: 'p1', title: 'Hello' });
    expect(await forumItems('f')).toEqual([
      { key: 'p:p1', title: 'Hello', description: null, link: `${env('FORUM_WEB_BASE_URL')}/r/f/comments/p1/post/`, published: expect.any(Number) },
    ]);
    await control('POST', '/stream/s1');
    const live = await control('POST', '/stream/s1/live', { title: 'On air' });
    expect(await liveStreams(['s1', 'other'])).toEqual([{ id: live.body.id, account: 's1', title: 'On air', started_at: Date.parse(live.body.started_at) }]);
    const channel = await control('POST', '/video/@chan');
    expect(await uploadsPlaylistOf('@Chan')).toBe(channel.body.uploads_playlist_id);
    await control('POST', '/video/@chan/videos', { title: 'Clip' });
    expect((await videoItems(channel.body.uploads_playlist_id)).map((i) => i.title)).toEqual(['Clip']);
    const feed = await control('POST', '/feeds', { name: 'n', format: 'atom', title: 'N' });
    await control('POST', '/feeds/n/entries', { title: 'E', guid: 'urn:e' });
    const first = await feedItems(feed.body.url);
    expect(first!.items.map((i) => i.title)).toEqual(['E']);
    expect(await feedItems(feed.body.url, { etag: first!.etag, lastModified: first!.lastModified })).toBeNull();
    expect(await fetchMeme()).toMatchObject({ nsfw: false, spoiler: false });

    for (const mode of ['garbage', 'huge', 'redirect']) {
      await control('POST', '/faults', { source: 'forum', mode });
      await expect(forumItems('f')).rejects.toBeInstanceOf(SourceError);
    }
    await control('POST', '/faults', { source: 'forum', mode: 'status', status: 500 });
    await expect(forumItems('f')).rejects.toThrow(/500/);
    process.env.SOURCE_TIMEOUT_MS = '200';
    try {
      await control('POST', '/faults', { source: 'forum', mode: 'timeout' });
      await expect(forumItems('f')).rejects.toThrow(/did not answer in full in time/);
    } finally {
      delete process.env.SOURCE_TIMEOUT_MS;
    }
  });
});

/**
 * The sandbox sources over HTTP, beside the sandbox platform.
 *
 * Source APIs (under `/sources`, the wire formats of contract section 7;
 * local mode points FORUM_API_BASE_URL and the others here when unset):
 *   GET /sources/forum/r/{community}/new.json?limit=25         404 for an unknown community
 *   GET /sources/stream/helix/users?login=a                     needs Client-Id and a Bearer token
 *   GET /sources/stream/helix/streams?user_login=a&user_login=b (at most 100)
 *   GET /sources/video/youtube/v3/channels?part=contentDetails&forHandle=@h&key=k
 *   GET /sources/video/youtube/v3/playlistItems?part=snippet&playlistId=p&maxResults=10&key=k
 *   GET /sources/feeds/{name}                                   RSS 2.0 or Atom, ETag and Last-Modified, 304
 *   GET /sources/meme                                           the next queued meme, else a safe one
 *   GET /sources/{forum,stream,video}-web/...                   the public pages items link to
 *
 * Control routes (under `/_sandbox/sources`, JSON bodies):
 *   POST   /forum/{community}                 the community exists
 *   POST   /forum/{community}/posts           `{title, id?, url?}`: a new post (answers it, with its permalink)
 *   POST   /stream/{account}                  the account exists
 *   POST   /stream/{account}/live             `{title}`: goes live with a new stream id; DELETE: goes offline
 *   POST   /video/{handle}                    the channel exists (answers its uploads playlist id)
 *   POST   /video/{handle}/videos             `{title}`: an upload (answers its video id)
 *   POST   /feeds                             `{name, format: "rss"|"atom", title}`: a feed (answers its url)
 *   POST   /feeds/{name}/entries              `{title, description?, link?, guid?}`: a new entry
 *   POST   /memes                             `{title, url, postLink?, nsfw?, spoiler?}`: queued for the next asks
 *   POST   /faults                            `{source: forum|stream|video|feed|meme, mode: status|timeout|garbage|huge|redirect|not-modified, status?, times?}`
 *   GET    /requests                          requests per source (and feed 304s); DELETE resets them
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalidField } from '../errors.js';
import type { Route } from '../router.js';
import type { SandboxState } from '../state.js';
import { type Feed, type SourceFault, type SourceName, type SourcesState, feedXml, nextId } from './model.js';

const fieldsOf = (body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});
const text = (body: unknown, name: string, required = true): string | null => {
  const value = fieldsOf(body)[name];
  if (typeof value === 'string' && value !== '') return value;
  if (!required && (value === undefined || value === null)) return null;
  throw invalidField([name], 'BASE_TYPE_REQUIRED', 'A non-empty string is required.');
};

const HUGE_BYTES = 6 * 1024 * 1024;

/** The base URLs local mode gives the socials module for these sources. */
export function sourceUrls(origin: string): Record<string, string> {
  return {
    FORUM_API_BASE_URL: `${origin}/sources/forum`,
    FORUM_WEB_BASE_URL: `${origin}/sources/forum-web`,
    STREAM_API_BASE_URL: `${origin}/sources/stream`,
    STREAM_WEB_BASE_URL: `${origin}/sources/stream-web`,
    STREAM_API_CLIENT_ID: 'sandbox-client',
    STREAM_API_TOKEN: 'sandbox-token',
    VIDEO_API_BASE_URL: `${origin}/sources/video`,
    VIDEO_WEB_BASE_URL: `${origin}/sources/video-web`,
    VIDEO_API_KEY: 'sandbox-key',
    MEME_API_URL: `${origin}/sources/meme`,
  };
}

function sourceOf(path: string): SourceName | null {
  const first = path.split('/')[2];
  if (first === 'forum' || first === 'stream' || first === 'video' || first === 'meme') return first;
  if (first === 'feeds') return 'feed';
  return null;
}

function takeFault(state: SourcesState, source: SourceName): SourceFault | null {
  const fault = state.faults.find((f) => f.source === source && f.times > 0);
  if (!fault) return null;
  fault.times--;
  state.faults = state.faults.filter((f) => f.times > 0);
  return fault;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** Misbehaves as the fault says; answers true when the request was answered (or left hanging). */
function misbehave(res: ServerResponse, fault: SourceFault, path: string): void {
  switch (fault.mode) {
    case 'status':
      json(res, fault.status, { error: fault.status, message: 'sandbox fault' });
      return;
    case 'timeout':
      // Never answers; the client's time limit ends it.
      res.on('close', () => undefined);
      return;
    case 'garbage':
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('<<<this is not what you asked for>>>');
      return;
    case 'huge':
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(Buffer.alloc(HUGE_BYTES, 97));
      return;
    case 'redirect':
      res.writeHead(302, { Location: `${path}?redirect-loop=1` }).end();
      return;
    case 'not-modified':
      res.writeHead(304).end();
  }
}

function forum(state: SourcesState, res: ServerResponse, parts: string[], origin: string): void {
  // /sources/forum/r/{community}/new.json
  const community = decodeURIComponent(parts[4] ?? '').toLowerCase();
  const found = parts[3] === 'r' && parts[5] === 'new.json' ? state.forums.get(community) : undefined;
  if (!found) return json(res, 404, { message: 'Not Found', error: 404 });
  json(res, 200, {
    kind: 'Listing',
    data: { children: found.posts.slice(0, 25).map((post) => ({ kind: 't3', data: { ...post, url: post.url || `${origin}/sources/forum-web${post.permalink}` } })) },
  });
}

function stream(state: SourcesState, req: IncomingMessage, res: ServerResponse, parts: string[], url: URL): void {
  if (!req.headers['client-id'] || !/^Bearer .+/.test(req.headers.authorization ?? '')) return json(res, 401, { error: 'Unauthorized', status: 401, message: 'OAuth token is missing' });
  if (parts[3] !== 'helix') return json(res, 404, { error: 'Not Found', status: 404 });
  if (parts[4] === 'users') {
    const logins = url.searchParams.getAll('login').map((l) => l.toLowerCase());
    return json(res, 200, { data: logins.map((l) => state.streams.get(l)).filter(Boolean).map((a) => ({ id: a!.id, login: a!.login, display_name: a!.display_name })) });
  }
  if (parts[4] === 'streams') {
    const logins = url.searchParams.getAll('user_login').map((l) => l.toLowerCase());
    if (logins.length > 100) return json(res, 400, { error: 'Bad Request', status: 400, message: 'The number of user_login query parameters exceeds the maximum allowed' });
    const live = logins.map((l) => state.streams.get(l)).filter((a) => a?.live);
    return json(res, 200, {
      data: live.map((a) => ({ id: a!.live!.id, user_login: a!.login, user_name: a!.display_name, title: a!.live!.title, game_name: 'Sandbox', started_at: a!.live!.started_at, type: 'live' })),
    });
  }
  json(res, 404, { error: 'Not Found', status: 404 });
}

function video(state: SourcesState, res: ServerResponse, parts: string[], url: URL): void {
  if (!url.searchParams.get('key')) return json(res, 403, { error: { code: 403, message: 'The request is missing a valid API key.' } });
  const endpoint = parts.slice(3).join('/');
  if (endpoint === 'youtube/v3/channels') {
    const handle = (url.searchParams.get('forHandle') ?? '').toLowerCase();
    const channel = state.videos.get(handle.startsWith('@') ? handle : `@${handle}`);
    return json(res, 200, channel ? { kind: 'youtube#channelListResponse', items: [{ id: channel.id, contentDetails: { relatedPlaylists: { uploads: channel.uploads } } }] } : { kind: 'youtube#channelListResponse' });
  }
  if (endpoint === 'youtube/v3/playlistItems') {
    const channel = [...state.videos.values()].find((c) => c.uploads === url.searchParams.get('playlistId'));
    if (!channel) return json(res, 404, { error: { code: 404, message: 'The playlist identified with the request\'s playlistId parameter cannot be found.' } });
    const max = Math.min(50, Number(url.searchParams.get('maxResults') ?? 5) || 5);
    return json(res, 200, {
      items: channel.videos.slice(0, max).map((v) => ({ snippet: { title: v.title, publishedAt: v.publishedAt, resourceId: { kind: 'youtube#video', videoId: v.videoId } } })),
    });
  }
  json(res, 404, { error: { code: 404, message: 'Not Found' } });
}

function feed(state: SourcesState, req: IncomingMessage, res: ServerResponse, name: string, selfUrl: string): void {
  const found = state.feeds.get(name);
  if (!found) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such feed');
  const etag = `"${found.name}-${found.version}"`;
  const lastModified = found.lastModified.toUTCString();
  const since = req.headers['if-modified-since'] ? Date.parse(req.headers['if-modified-since']) : NaN;
  if (req.headers['if-none-match'] === etag || (!req.headers['if-none-match'] && Number.isFinite(since) && found.lastModified.getTime() <= since + 999)) {
    state.requests['feed-304'] = (state.requests['feed-304'] ?? 0) + 1;
    return void res.writeHead(304, { ETag: etag, 'Last-Modified': lastModified }).end();
  }
  res.writeHead(200, { 'Content-Type': found.format === 'rss' ? 'application/rss+xml' : 'application/atom+xml', ETag: etag, 'Last-Modified': lastModified }).end(feedXml(found, selfUrl));
}

function meme(state: SourcesState, res: ServerResponse, origin: string): void {
  const next = state.memes.shift() ?? { title: 'A sandbox meme', url: `${origin}/sources/meme-image.png`, postLink: `${origin}/sources/forum-web/r/memes/1`, nsfw: false, spoiler: false };
  json(res, 200, { ...next, subreddit: 'memes', author: 'sandbox', ups: 1, preview: [next.url] });
}

/** Answers a request under `/sources/`. */
export function answerSource(sandbox: SandboxState, req: IncomingMessage, res: ServerResponse, url: URL, origin: string): void {
  const state = sandbox.sources;
  const parts = url.pathname.split('/');
  const source = sourceOf(url.pathname);
  // A redirect loop, once started, goes on by itself until the client gives up.
  if (url.searchParams.has('redirect-loop')) return void res.writeHead(302, { Location: url.pathname + url.search }).end();
  if (source) {
    state.requests[source] = (state.requests[source] ?? 0) + 1;
    const fault = takeFault(state, source);
    if (fault) return misbehave(res, fault, url.pathname);
  }
  if (req.method !== 'GET') return json(res, 405, { message: 'Method Not Allowed' });
  switch (parts[2]) {
    case 'forum':
      return forum(state, res, parts, origin);
    case 'stream':
      return stream(state, req, res, parts, url);
    case 'video':
      return video(state, res, parts, url);
    case 'feeds':
      return feed(state, req, res, decodeURIComponent(parts[3] ?? ''), `${origin}${url.pathname}`);
    case 'meme':
      return meme(state, res, origin);
    default:
      // The public pages items link to (forum-web, stream-web, video-web) and anything else: a plain page.
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Sandbox</title><p>${url.pathname.replace(/[<&>]/g, '')}</p>`);
  }
}

const newFeed = (state: SourcesState, body: unknown): Feed => {
  const name = text(body, 'name')!;
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw invalidField(['name'], 'BASE_TYPE_BAD_NAME', 'Letters, digits, _ . - only.');
  const format = fieldsOf(body).format === 'atom' ? 'atom' : 'rss';
  const feed: Feed = { name, format, title: text(body, 'title', false) ?? name, entries: [], lastModified: new Date(), version: 1 };
  state.feeds.set(name, feed);
  return feed;
};

/** The control routes of the sources; patterns are relative to `/_sandbox`. Needs the sandbox's origin for URLs. */
export function sourceControlRoutes(origin: () => string): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/sources/forum/:community',
      handle: ({ state, params }) => {
        const key = params.community!.toLowerCase();
        if (!state.sources.forums.has(key)) state.sources.forums.set(key, { name: params.community!, posts: [] });
        return { status: 204 };
      },
    },
    {
      method: 'POST',
      pattern: '/sources/forum/:community/posts',
      handle: ({ state, params, body }) => {
        const forum = state.sources.forums.get(params.community!.toLowerCase());
        if (!forum) throw invalidField(['community'], 'UNKNOWN', 'Create the community first.');
        const id = text(body, 'id', false) ?? nextId(state.sources).slice(-6);
        const permalink = `/r/${forum.name}/comments/${id}/post/`;
        const post = { id, title: text(body, 'title')!, permalink, url: text(body, 'url', false) ?? `${origin()}/sources/forum-web${permalink}`, created_utc: Date.now() / 1000, over_18: false };
        forum.posts.unshift(post);
        return { status: 200, body: post };
      },
    },
    {
      method: 'POST',
      pattern: '/sources/stream/:account',
      handle: ({ state, params }) => {
        const key = params.account!.toLowerCase();
        if (!state.sources.streams.has(key)) state.sources.streams.set(key, { id: nextId(state.sources), login: key, display_name: params.account!, live: null });
        return { status: 204 };
      },
    },
    {
      method: 'POST',
      pattern: '/sources/stream/:account/live',
      handle: ({ state, params, body }) => {
        const account = state.sources.streams.get(params.account!.toLowerCase());
        if (!account) throw invalidField(['account'], 'UNKNOWN', 'Create the account first.');
        account.live = { id: nextId(state.sources), title: text(body, 'title', false) ?? 'Live now', started_at: new Date().toISOString() };
        return { status: 200, body: account.live };
      },
    },
    {
      method: 'DELETE',
      pattern: '/sources/stream/:account/live',
      handle: ({ state, params }) => {
        const account = state.sources.streams.get(params.account!.toLowerCase());
        if (account) account.live = null;
        return { status: 204 };
      },
    },
    {
      method: 'POST',
      pattern: '/sources/video/:handle',
      handle: ({ state, params }) => {
        const handle = params.handle!.toLowerCase();
        let channel = state.sources.videos.get(handle);
        if (!channel) {
          const id = nextId(state.sources);
          channel = { id: `UC${id}`, handle, uploads: `UU${id}`, videos: [] };
          state.sources.videos.set(handle, channel);
        }
        return { status: 200, body: { channel_id: channel.id, uploads_playlist_id: channel.uploads } };
      },
    },
    {
      method: 'POST',
      pattern: '/sources/video/:handle/videos',
      handle: ({ state, params, body }) => {
        const channel = state.sources.videos.get(params.handle!.toLowerCase());
        if (!channel) throw invalidField(['handle'], 'UNKNOWN', 'Create the channel first.');
        const video = { videoId: `v${nextId(state.sources)}`, title: text(body, 'title')!, publishedAt: new Date().toISOString() };
        channel.videos.unshift(video);
        return { status: 200, body: { video_id: video.videoId } };
      },
    },
    {
      method: 'POST',
      pattern: '/sources/feeds',
      handle: ({ state, body }) => {
        const feed = newFeed(state.sources, body);
        return { status: 200, body: { url: `${origin()}/sources/feeds/${feed.name}` } };
      },
    },
    {
      method: 'POST',
      pattern: '/sources/feeds/:name/entries',
      handle: ({ state, params, body }) => {
        const feed = state.sources.feeds.get(params.name!);
        if (!feed) throw invalidField(['name'], 'UNKNOWN', 'Create the feed first.');
        const published = new Date(Math.max(Date.now(), feed.lastModified.getTime() + 1000));
        const entry = { guid: text(body, 'guid', false), title: text(body, 'title')!, description: text(body, 'description', false), link: text(body, 'link', false), published };
        feed.entries.unshift(entry);
        feed.lastModified = published;
        feed.version++;
        return { status: 200, body: { ...entry, published: published.toISOString() } };
      },
    },
    {
      method: 'POST',
      pattern: '/sources/memes',
      handle: ({ state, body }) => {
        const b = fieldsOf(body);
        const url = text(body, 'url')!;
        state.sources.memes.push({ title: text(body, 'title')!, url, postLink: text(body, 'postLink', false) ?? url, nsfw: b.nsfw === true, spoiler: b.spoiler === true });
        return { status: 204 };
      },
    },
    {
      method: 'POST',
      pattern: '/sources/faults',
      handle: ({ state, body }) => {
        const b = fieldsOf(body);
        const sources: SourceName[] = ['forum', 'stream', 'video', 'feed', 'meme'];
        const modes: SourceFault['mode'][] = ['status', 'timeout', 'garbage', 'huge', 'redirect', 'not-modified'];
        if (!sources.includes(b.source as SourceName)) throw invalidField(['source'], 'BASE_TYPE_CHOICES', `One of ${sources.join(', ')}.`);
        if (!modes.includes(b.mode as SourceFault['mode'])) throw invalidField(['mode'], 'BASE_TYPE_CHOICES', `One of ${modes.join(', ')}.`);
        state.sources.faults.push({ source: b.source as SourceName, mode: b.mode as SourceFault['mode'], status: typeof b.status === 'number' ? b.status : 500, times: typeof b.times === 'number' ? b.times : 1 });
        return { status: 204 };
      },
    },
    { method: 'GET', pattern: '/sources/requests', handle: ({ state }) => ({ status: 200, body: state.sources.requests }) },
    { method: 'DELETE', pattern: '/sources/requests', handle: ({ state }) => ((state.sources.requests = {}), { status: 204 }) },
  ];
}

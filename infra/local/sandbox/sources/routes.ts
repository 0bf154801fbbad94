/**
 * The sandbox sources over HTTP, beside the sandbox platform: this index
 * routes to one file per source (forum, stream, video, feeds, meme) and
 * faults.ts (misbehaviour, request counts).
 *
 * Source APIs (under `/sources`, the wire formats of behaviour §7;
 * local mode points FORUM_API_BASE_URL and the others here when unset):
 *   GET /sources/forum/r/{community}/new.json?limit=25         404 for an unknown community
 *   GET /sources/stream/helix/users?login=a                     needs Client-Id and a Bearer token
 *   GET /sources/stream/helix/streams?user_login=a&user_login=b (at most 100)
 *   GET /sources/video/youtube/v3/channels?part=contentDetails&forHandle=@h&key=k
 *   GET /sources/video/youtube/v3/playlistItems?part=snippet&playlistId=p&maxResults=10&key=k
 *   GET /sources/feeds/{name} (or {name}.rss, {name}.atom)        RSS 2.0 or Atom, ETag and Last-Modified, 304
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
 *   POST   /feeds                             `{name, format: "rss"|"atom", title}`: a feed (answers its url, `/sources/feeds/{name}`)
 *   POST   /feeds/{name}/entries              `{title, description?, link?, guid?}`: a new entry
 *   POST   /memes                             `{title, url, postLink?, nsfw?, spoiler?}`: queued for the next asks
 *   POST   /faults                            `{source: forum|stream|video|feed|meme, mode: status|timeout|garbage|huge|redirect|not-modified, status?, times?}`
 *   GET    /requests                          requests per source (and feed 304s); DELETE resets them
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Route } from '../router.js';
import type { SandboxState } from '../state.js';
import { faultControlRoutes, misbehave, takeFault } from './faults.js';
import { feed, feedControlRoutes } from './feeds.js';
import { forum, forumControlRoutes } from './forum.js';
import { json } from './http.js';
import { meme, memeControlRoutes } from './meme.js';
import type { SourceName } from './model.js';
import { stream, streamControlRoutes } from './stream.js';
import { video, videoControlRoutes } from './video.js';

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
      res
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>Sandbox</title><p>${url.pathname.replace(/[<&>]/g, '')}</p>`);
  }
}

/** The control routes of the sources; patterns are relative to `/_sandbox`. Needs the sandbox's origin for URLs. */
export const sourceControlRoutes = (origin: () => string): Route[] => [
  ...forumControlRoutes(origin),
  ...streamControlRoutes,
  ...videoControlRoutes,
  ...feedControlRoutes(origin),
  ...memeControlRoutes,
  ...faultControlRoutes,
];

/**
 * The watched sources over real HTTP (behaviour §7, wire formats there): the
 * forum's listing, the stream service's users and streams, the video
 * service's channels and uploads, RSS and Atom feeds, and the meme source.
 * Every request goes only where sources may be (client.ts), ends within the
 * source limit whatever the source does and within the caller's own
 * deadline when it gives one, has a 5 MiB cap, feeds are fetched with
 * `If-None-Match` / `If-Modified-Since`, and every failure is a
 * {@link SourceError} naming the class of what went wrong, a feed by its
 * origin only (its userinfo, path and query may hold credentials).
 */
import { configuredSecret } from '#shared/secrets.js';
import { type SourceItem, parseFeed } from '../feed/parse.js';
import type { Kind } from '../kinds.js';
import { type ReachRule, type Reached, SourceRefused, TooLarge, reach } from './client.js';

export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/**
 * How long one read of a source may take, whole: lookup, connections,
 * redirects, headers, body and decompression (`SOURCE_TIMEOUT_MS`, default
 * 8 s). A create checks its source within it, so the default leaves the
 * route function (10 s) time to answer the 422.
 */
export function sourceLimitMs(): number {
  const value = Number(process.env.SOURCE_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : 8_000;
}

/** One deadline of the source limit, ending sooner with `outer` (a run's or a create's own deadline) when given. */
export function sourceDeadline(outer?: AbortSignal): AbortSignal {
  const own = AbortSignal.timeout(sourceLimitMs());
  return outer ? AbortSignal.any([own, outer]) : own;
}

/**
 * A source URL as logs and answers show it: scheme, host and port only. Its
 * userinfo, path and query may carry credentials (`?token=`, `user:pass@`),
 * and its fixed-size key tells sources apart where that is needed.
 */
export function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return '(not a URL)';
  }
}

/** A watched source as messages to callers name it: `rss feed at <origin>`, or the kind and its identifier (a name, never a secret). */
export const shownSource = (kind: Kind, identifier: string) => (kind === 'rss' ? `rss feed at ${originOf(identifier)}` : `${kind} ${identifier}`);

/**
 * A source that did not answer as it should; `unknown` when it said the
 * thing does not exist, `refused` when the URL breaks a rule of where
 * sources may be (client.ts). The message names a class of failure, never
 * what a host answered in its own words (no oracle of ports or bodies); the
 * `cause`, for the logs, has the detail.
 */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly unknown = false,
    readonly refused: ReachRule | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SourceError';
  }
}

const env = (name: string, fallback: string) => (process.env[name] || fallback).replace(/\/$/, '');

/** Where each source lives: the configured URLs, else the public services (local mode sets its sandbox). */
export const sourceConfig = () => ({
  forumApi: env('FORUM_API_BASE_URL', 'https://www.reddit.com'),
  forumWeb: env('FORUM_WEB_BASE_URL', 'https://www.reddit.com'),
  streamApi: env('STREAM_API_BASE_URL', 'https://api.twitch.tv'),
  streamWeb: env('STREAM_WEB_BASE_URL', 'https://www.twitch.tv'),
  streamClientId: process.env.STREAM_API_CLIENT_ID ?? '',
  videoApi: env('VIDEO_API_BASE_URL', 'https://www.googleapis.com'),
  videoWeb: env('VIDEO_WEB_BASE_URL', 'https://www.youtube.com'),
  memeUrl: process.env.MEME_API_URL || 'https://meme-api.com/gimme',
});

export interface Fetched {
  status: number;
  /** The body as UTF-8 text. */
  body: string;
  /** The body as sent (decompressed), for readers that decode it themselves. */
  bytes: Buffer;
  contentType: string | null;
  /** Where the answer came from, after redirects. */
  url: string;
  etag: string | null;
  lastModified: string | null;
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

/**
 * GET within the source limit (and `signal`, when given) and a size cap,
 * only where sources may be (client.ts); 304 is an answer, any other non-2xx
 * a SourceError. `what` names the source in errors: never the URL itself.
 */
export async function get(url: string, headers: Record<string, string>, what: string, signal?: AbortSignal): Promise<Fetched> {
  let reached: Reached;
  const deadline = sourceDeadline(signal);
  try {
    reached = await reach(url, {
      headers: { 'user-agent': 'guild-module-management-service (feed poller)', ...headers },
      signal: deadline,
      maxBytes: MAX_BODY_BYTES,
    });
  } catch (error) {
    if (error instanceof SourceRefused) throw new SourceError(`${what} is refused: ${error.message}`, false, error.rule);
    if (error instanceof TooLarge) throw new SourceError(`${what} sent more than the 5 MiB a source may send`, false, null, { cause: error });
    // The source limit, or the caller's own deadline (a run's, a create's) when that came first.
    if (deadline.aborted)
      throw new SourceError(`${what} did not answer in full in time (a source has ${sourceLimitMs() / 1000} s)`, false, null, { cause: error });
    // A refused connection and a body cut off alike: the 422 names the class, the cause (logs) the detail.
    throw new SourceError(`${what} could not be reached`, false, null, { cause: error });
  }
  const fetched: Fetched = {
    status: reached.status,
    body: reached.bytes.toString('utf8'),
    bytes: reached.bytes,
    contentType: header(reached.headers['content-type']),
    url: reached.url,
    etag: header(reached.headers.etag),
    lastModified: header(reached.headers['last-modified']),
  };
  if (fetched.status === 304) return { ...fetched, body: '', bytes: Buffer.alloc(0) };
  if (fetched.status === 404) throw new SourceError(`${what} answered 404 Not Found`, true);
  if (fetched.status < 200 || fetched.status > 299) throw new SourceError(`${what} answered HTTP ${fetched.status}`);
  return fetched;
}

function json<T>(fetched: Fetched, what: string): T {
  try {
    return JSON.parse(fetched.body) as T;
  } catch {
    throw new SourceError(`${what} answered something that is not JSON`);
  }
}

// ---- forum ------------------------------------------------------------------------

export async function forumItems(community: string, signal?: AbortSignal): Promise<SourceItem[]> {
  const c = sourceConfig();
  const what = `The forum community '${community}'`;
  const listing = json<{ data?: { children?: { data?: Record<string, unknown> }[] } }>(
    await get(`${c.forumApi}/r/${encodeURIComponent(community)}/new.json?limit=25`, {}, what, signal),
    what,
  );
  const children = listing.data?.children;
  if (!Array.isArray(children)) throw new SourceError(`${what} answered a listing without data.children`);
  return children
    .map((child) => child.data ?? {})
    .filter((post) => typeof post.id === 'string')
    .map((post) => ({
      key: `p:${post.id}`,
      title: String(post.title ?? ''),
      description: null,
      link: typeof post.permalink === 'string' ? `${c.forumWeb}${post.permalink}` : typeof post.url === 'string' ? post.url : null,
      published: typeof post.created_utc === 'number' ? post.created_utc * 1000 : null,
    }));
}

// ---- stream -----------------------------------------------------------------------

/** The stream service's credentials; the token may be a secret (`STREAM_API_TOKEN_SECRET_ARN`). */
const streamHeaders = async () => ({
  'Client-Id': sourceConfig().streamClientId,
  Authorization: `Bearer ${(await configuredSecret('STREAM_API_TOKEN')) ?? ''}`,
});
/** The video service's key; it may be a secret (`VIDEO_API_KEY_SECRET_ARN`). */
const videoKey = async () => encodeURIComponent((await configuredSecret('VIDEO_API_KEY')) ?? '');

export async function streamAccountExists(account: string, signal?: AbortSignal): Promise<void> {
  const c = sourceConfig();
  const what = `The stream account '${account}'`;
  const users = json<{ data?: unknown[] }>(
    await get(`${c.streamApi}/helix/users?login=${encodeURIComponent(account)}`, await streamHeaders(), what, signal),
    what,
  );
  if (!Array.isArray(users.data) || users.data.length === 0) throw new SourceError(`${what} does not exist (the stream service lists no such user)`, true);
}

export interface LiveStream {
  id: string;
  account: string;
  title: string;
  /** When the session started (epoch ms), when the service says. */
  started_at: number | null;
}

/** The stream service's pages: at most 100 streams a page. */
const STREAM_PAGE = 100;
/** Pages read for one request of accounts; 100 accounts fill one page, so more means the service keeps answering a cursor. */
const MAX_STREAM_PAGES = 10;

/** The accounts live now, for up to 100 accounts in one request, reading every page of the answer. */
export async function liveStreams(accounts: string[], signal?: AbortSignal): Promise<LiveStream[]> {
  const c = sourceConfig();
  const query = accounts.map((a) => `user_login=${encodeURIComponent(a)}`).join('&');
  const what = `The stream service (${accounts.length} accounts)`;
  const live: LiveStream[] = [];
  let cursor: string | null = null;
  for (let page = 0; page === 0 || cursor; page++) {
    if (page === MAX_STREAM_PAGES) throw new SourceError(`${what} answered more than ${MAX_STREAM_PAGES} pages`);
    const after: string = cursor ? `&after=${encodeURIComponent(cursor)}` : '';
    const streams = json<{ data?: Record<string, unknown>[]; pagination?: { cursor?: unknown } }>(
      await get(`${c.streamApi}/helix/streams?${query}&first=${STREAM_PAGE}${after}`, await streamHeaders(), what, signal),
      what,
    );
    if (!Array.isArray(streams.data)) throw new SourceError(`${what} answered without data`);
    live.push(
      ...streams.data
        .filter((s) => s.type === 'live' && typeof s.id === 'string' && typeof s.user_login === 'string')
        .map((s) => ({
          id: String(s.id),
          account: String(s.user_login).toLowerCase(),
          title: String(s.title ?? ''),
          started_at: typeof s.started_at === 'string' ? Date.parse(s.started_at) || null : null,
        })),
    );
    const next = streams.pagination?.cursor;
    cursor = typeof next === 'string' && next !== '' && streams.data.length > 0 ? next : null;
  }
  return live;
}

export const streamUrl = (account: string) => `${sourceConfig().streamWeb}/${account}`;

// ---- video ------------------------------------------------------------------------

export async function uploadsPlaylistOf(handle: string, signal?: AbortSignal): Promise<string> {
  const c = sourceConfig();
  const what = `The video channel '${handle}'`;
  const channels = json<{ items?: { contentDetails?: { relatedPlaylists?: { uploads?: string } } }[] }>(
    await get(`${c.videoApi}/youtube/v3/channels?part=contentDetails&forHandle=${encodeURIComponent(handle)}&key=${await videoKey()}`, {}, what, signal),
    what,
  );
  const uploads = channels.items?.[0]?.contentDetails?.relatedPlaylists?.uploads;
  if (!uploads) throw new SourceError(`${what} does not exist (the video service lists no channel for that handle)`, true);
  return uploads;
}

export async function videoItems(uploadsPlaylistId: string, signal?: AbortSignal): Promise<SourceItem[]> {
  const c = sourceConfig();
  const what = `The uploads playlist '${uploadsPlaylistId}'`;
  const playlist = json<{ items?: { snippet?: { title?: string; publishedAt?: string; resourceId?: { videoId?: string } } }[] }>(
    await get(
      `${c.videoApi}/youtube/v3/playlistItems?part=snippet&playlistId=${encodeURIComponent(uploadsPlaylistId)}&maxResults=10&key=${await videoKey()}`,
      {},
      what,
      signal,
    ),
    what,
  );
  return (playlist.items ?? [])
    .map((item) => item.snippet ?? {})
    .filter((s) => typeof s.resourceId?.videoId === 'string')
    .map((s) => ({
      key: `v:${s.resourceId!.videoId}`,
      title: String(s.title ?? ''),
      description: null,
      link: `${c.videoWeb}/watch?v=${encodeURIComponent(s.resourceId!.videoId!)}`,
      published: s.publishedAt ? Date.parse(s.publishedAt) || null : null,
    }));
}

export const videoUrl = (videoId: string) => `${sourceConfig().videoWeb}/watch?v=${encodeURIComponent(videoId)}`;

// ---- rss --------------------------------------------------------------------------

/** A feed's items, or null when it answered 304 Not Modified to the validators given. */
export async function feedItems(
  url: string,
  validators: { etag?: string | null; lastModified?: string | null } = {},
  signal?: AbortSignal,
): Promise<{ items: SourceItem[]; etag: string | null; lastModified: string | null } | null> {
  const headers: Record<string, string> = {};
  if (validators.etag) headers['If-None-Match'] = validators.etag;
  if (validators.lastModified) headers['If-Modified-Since'] = validators.lastModified;
  const what = `The feed at ${originOf(url)}`;
  const fetched = await get(url, headers, what, signal);
  if (fetched.status === 304) return null;
  try {
    return {
      items: parseFeed(fetched.bytes, { contentType: fetched.contentType, url: fetched.url }).items,
      etag: fetched.etag,
      lastModified: fetched.lastModified,
    };
  } catch (error) {
    // What the parser found stays in the logs: a 422 saying more would tell a caller what any host answered.
    throw new SourceError(`${what} is not a feed (not well-formed RSS 2.0 or Atom)`, true, null, { cause: error });
  }
}

// ---- meme -------------------------------------------------------------------------

export interface Meme {
  title: string;
  url: string;
  postLink: string;
  nsfw: boolean;
  spoiler: boolean;
}

export async function fetchMeme(): Promise<Meme> {
  const what = 'The meme source';
  const meme = json<Partial<Meme>>(await get(sourceConfig().memeUrl, {}, what), what);
  if (typeof meme.url !== 'string' || typeof meme.title !== 'string') throw new SourceError(`${what} answered without a title and url`);
  return { title: meme.title, url: meme.url, postLink: String(meme.postLink ?? meme.url), nsfw: Boolean(meme.nsfw), spoiler: Boolean(meme.spoiler) };
}

/**
 * Polling the watched sources on the durable scheduler (contract 7 and 9):
 * one job per forum, rss and video source (key `<kind>:<id>`), polled once
 * per interval however many guilds watch it, and one job for every stream
 * account at once, asked about 100 accounts a request. A failing source
 * backs off 5 minutes x 2^(failures - 1), at most 24 hours, on its own
 * schedule, so it never delays another. New items (not in the source's
 * `seen` keys) are announced oldest first.
 */
import { type SourceItem, oldestFirst } from './feed.js';
import type { Kind } from './kinds.js';
import { announce } from './announce.js';
import { feedItems, forumItems, liveStreams, streamUrl, videoItems } from './sources.js';
import { type Source, deleteSource, getSource, getSources, replaceSource, sourceIdentsOfKind, watchersOf } from './store.js';

export const POLL_JOB = 'socials.poll';
export const STREAM_JOB = 'socials.streams';
export const STREAM_JOB_KEY = 'all';
export const STREAMS_PER_REQUEST = 100;
/** How many item keys a source remembers beyond what it holds now. */
const SEEN_KEPT = 300;
const BACKOFF_BASE_MS = 5 * 60 * 1000;
const BACKOFF_MAX_MS = 24 * 3600 * 1000;

export function pollIntervalMs(): number {
  const seconds = Number(process.env.SOCIALS_POLL_SECONDS || 300);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 300) * 1000;
}

export const backoffMs = (failures: number) => Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));

export const pollJobKey = (kind: Kind, ident: string) => `${kind}:${ident}`;
export function parsePollJobKey(key: string): { kind: Kind; ident: string } | null {
  const at = key.indexOf(':');
  const kind = key.slice(0, at) as Kind;
  return at > 0 && ['forum', 'rss', 'video'].includes(kind) ? { kind, ident: key.slice(at + 1) } : null;
}

/** The items a source holds now, or null when it answered 304 Not Modified. */
async function itemsOf(source: Source): Promise<{ items: SourceItem[]; etag?: string | null; lastModified?: string | null } | null> {
  switch (source.kind) {
    case 'forum':
      return { items: await forumItems(source.ident) };
    case 'video':
      return { items: await videoItems(source.uploads_playlist_id!) };
    case 'rss':
      return feedItems(source.identifier, { etag: source.etag, lastModified: source.last_modified });
    default:
      throw new Error(`${source.kind} sources are polled together`);
  }
}

/** The newest item's text kept on the source for the entries' `latest_entry` / `latest_video_id`. */
export function latestOf(kind: Kind, items: SourceItem[]): string | null {
  const newest = oldestFirst(items).at(-1);
  if (!newest) return null;
  if (kind === 'video') return newest.key.slice('v:'.length);
  return newest.link ?? newest.title;
}

/** Remembers what the source holds now (and the newest of what it held), so nothing is announced twice. */
export function seenAfter(source: Source, items: SourceItem[]): string[] {
  const now = items.map((i) => i.key);
  const older = source.seen.filter((key) => !now.includes(key));
  return [...now, ...older].slice(0, Math.max(SEEN_KEPT, now.length));
}

/** Announces the new items of a poll, oldest first; answers the keys some channel could not take yet. */
async function announceNew(source: Source, items: SourceItem[]): Promise<Set<string>> {
  const seen = new Set(source.seen);
  const undelivered = new Set<string>();
  for (const item of oldestFirst(items.filter((i) => !seen.has(i.key)))) {
    if ((await announce(source.kind, source.ident, item)).failed > 0) undelivered.add(item.key);
  }
  return undelivered;
}

/**
 * One poll of one source (the job's handler). Answers when to poll next, or
 * null when nothing watches the source any more (it is forgotten).
 */
export async function pollSource(kind: Kind, ident: string): Promise<number | null> {
  const source = await getSource(kind, ident);
  if (!source) return null;
  if ((await watchersOf(kind, ident)).length === 0) {
    await deleteSource(source);
    return null;
  }
  const now = Date.now();
  let fetched: Awaited<ReturnType<typeof itemsOf>>;
  try {
    fetched = await itemsOf(source);
  } catch (error) {
    const failures = source.failures + 1;
    const next = now + backoffMs(failures);
    console.warn(
      JSON.stringify({ level: 'warn', msg: 'source failed', kind, source: ident, failures, error: error instanceof Error ? error.message : String(error) }),
    );
    await replaceSource({ ...source, failures, next_poll_at: new Date(next).toISOString() });
    return next;
  }
  const next = now + pollIntervalMs();
  const polled: Source = { ...source, failures: 0, next_poll_at: new Date(next).toISOString() };
  if (fetched) {
    // Items some channel could not take yet stay unseen, so the next poll offers them again (delivery marks stop doubles).
    const undelivered = await announceNew(source, fetched.items);
    polled.seen = seenAfter(
      source,
      fetched.items.filter((i) => !undelivered.has(i.key)),
    );
    polled.latest = latestOf(kind, fetched.items) ?? source.latest;
    if ('etag' in fetched) {
      polled.etag = fetched.etag ?? null;
      polled.last_modified = fetched.lastModified ?? null;
    }
  }
  // A poll that lost the write to an overlapping one changes nothing: its announcements were marked once.
  await replaceSource(polled);
  return next;
}

/** One poll of every stream account, 100 a request. Answers when to poll next, or null when no stream is watched. */
export async function pollStreams(): Promise<number | null> {
  const idents = await sourceIdentsOfKind('stream');
  if (idents.length === 0) return null;
  const now = Date.now();
  const next = now + pollIntervalMs();
  for (let i = 0; i < idents.length; i += STREAMS_PER_REQUEST) {
    const chunk = idents.slice(i, i + STREAMS_PER_REQUEST);
    const sources = await getSources(chunk.map((ident) => ({ kind: 'stream' as const, ident })));
    let live: Awaited<ReturnType<typeof liveStreams>>;
    try {
      live = await liveStreams(chunk);
    } catch (error) {
      console.warn(
        JSON.stringify({ level: 'warn', msg: 'stream service failed', accounts: chunk.length, error: error instanceof Error ? error.message : String(error) }),
      );
      for (const source of sources.values()) {
        const failures = source.failures + 1;
        await replaceSource({ ...source, failures, next_poll_at: new Date(now + backoffMs(failures)).toISOString() });
      }
      continue;
    }
    const liveBy = new Map(live.map((s) => [s.account, s]));
    for (const source of sources.values()) {
      const stream = liveBy.get(source.ident);
      const updated: Source = { ...source, failures: 0, next_poll_at: new Date(next).toISOString() };
      if (stream && stream.id !== source.live_session) {
        const result = await announce('stream', source.ident, {
          key: `s:${stream.id}`,
          title: stream.title || `${source.identifier} is live`,
          description: null,
          link: streamUrl(source.identifier),
          published: now,
        });
        if (result.failed === 0) Object.assign(updated, { live_session: stream.id, live_since: now });
      }
      await replaceSource(updated);
    }
  }
  return next;
}

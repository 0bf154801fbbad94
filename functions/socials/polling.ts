/**
 * Polling the watched sources on the durable scheduler (behaviour §7 and §9):
 * one job per forum, rss and video source (key `<kind>:<id key>`, the
 * identifier in its payload), polled once per interval however many guilds
 * watch it, and one job per shard of the stream accounts (key
 * `shard:<n>`), asking 100 accounts a request and reading every page of the
 * answer: one shard until there are more than {@link STREAMS_PER_SHARD}
 * accounts, so 22 accounts cost one request an interval and 250 three. A
 * failing source backs off 5 minutes x 2^(failures - 1), at most 24 hours,
 * on its own schedule, so it never delays another. Every read of a source
 * ends within the source limit and within the run's own deadline (the
 * `signal` its job gives), and a failure is logged with the source's
 * fixed-size key and, for a feed, its origin: never the whole URL.
 *
 * A poll remembers the newest {@link SEEN_MAX} items it has seen (their
 * fixed-size keys); items of a feed older than its newest 1000 count as
 * seen. New items are handed, oldest first, to units of an announcement
 * (announce.ts) and recorded as seen in the same poll: the units deliver
 * them, each safe to repeat, so a poll takes about as long with 10 channels
 * as with 10,000.
 */
import { type SourceItem, oldestFirst } from './feed/parse.js';
import type { Kind } from './kinds.js';
import { fanOut } from './fan-out.js';
import { feedItems, forumItems, liveStreams, originOf, streamUrl, videoItems } from './reach/sources.js';
import {
  type Source,
  STREAM_BUCKETS,
  deleteSource,
  getSource,
  getSources,
  identKey,
  replaceSource,
  seenKey,
  streamAccountCount,
  streamAccountsOfBuckets,
  watchersOf,
} from './store.js';
import { errorField, log } from '#shared/observe/log.js';
import { requestLater } from '#shared/scheduler/table-only.js';
import { POLL_JOB, STREAM_JOB } from './jobs.js';

export { POLL_JOB, STREAM_JOB };

/** The stream service's batch limit: accounts one request may name. */
export const STREAMS_PER_REQUEST = 100;
/** The stream accounts are split into more shards (up to `STREAM_BUCKETS`) only when a shard would hold more than about this many. */
export const STREAMS_PER_SHARD = 1000;
/** How many items a source remembers (newest first), and how many of a poll's newest items can be new. */
export const SEEN_MAX = 1000;
/** A stream a send announced (it names no session) is the session the poll then finds live within this window. */
export const STREAM_SESSION_MS = 30 * 60 * 1000;
const BACKOFF_BASE_MS = 5 * 60 * 1000;
const BACKOFF_MAX_MS = 24 * 3600 * 1000;

export function pollIntervalMs(): number {
  const seconds = Number(process.env.SOCIALS_POLL_SECONDS || 300);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 300) * 1000;
}

export const backoffMs = (failures: number) => Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));

/** The job polling a source: its key is of fixed size whatever the identifier (a feed URL of 2048 characters); the identifier rides in the payload. */
export function pollJob(kind: Kind, ident: string): { job: string; key: string; payload: Record<string, unknown> } {
  // Shard 0 runs while any account is watched and asks for the other shards when there are enough accounts for them.
  if (kind === 'stream') return { job: STREAM_JOB, key: 'shard:0', payload: {} };
  return { job: POLL_JOB, key: `${kind}:${identKey(kind, ident)}`, payload: { kind, ident } };
}

/** The source a poll job's work names: its payload, or for work asked for before payloads named it, its key `<kind>:<identifier>`. */
export function polledSource(payload: Record<string, unknown>, key: string): { kind: Kind; ident: string } | null {
  const at = key.indexOf(':');
  const { kind, ident } = typeof payload.ident === 'string' ? payload : { kind: key.slice(0, at), ident: key.slice(at + 1) };
  return typeof ident === 'string' && ident !== '' && (kind === 'forum' || kind === 'rss' || kind === 'video') ? { kind, ident } : null;
}

/** The items a source holds now, or null when it answered 304 Not Modified. */
async function itemsOf(source: Source, signal?: AbortSignal): Promise<{ items: SourceItem[]; etag?: string | null; lastModified?: string | null } | null> {
  switch (source.kind) {
    case 'forum':
      return { items: await forumItems(source.ident, signal) };
    case 'video':
      return { items: await videoItems(source.uploads_playlist_id!, signal) };
    case 'rss':
      return feedItems(source.identifier, { etag: source.etag, lastModified: source.last_modified }, signal);
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

/** The items of a poll that may be new: the newest {@link SEEN_MAX}, oldest first. */
export const recentOf = (items: SourceItem[]) => oldestFirst(items).slice(-SEEN_MAX);

/** What a source remembers after a poll: the keys of what it holds now, then what it remembered, newest first, at most {@link SEEN_MAX}. */
export function seenAfter(seen: string[], recent: SourceItem[]): string[] {
  const now = recent.map((i) => seenKey(i.key)).reverse();
  const held = new Set(now);
  return [...now, ...seen.filter((key) => !held.has(key))].slice(0, SEEN_MAX);
}

/**
 * How a log names a source: a feed by its fixed-size key and its origin (the
 * URL's userinfo, path and query may carry credentials), the other kinds by
 * their identifier (a name, never a secret).
 */
export const sourceLogFields = (kind: Kind, ident: string): Record<string, string> =>
  kind === 'rss' ? { source_key: identKey(kind, ident), source_origin: originOf(ident) } : { source: ident };

/** Records a failed poll of a source and answers when to try again. */
async function failed(source: Source, error: unknown, now: number): Promise<number> {
  const failures = source.failures + 1;
  const next = now + backoffMs(failures);
  // The cause is the network's own words (a Node error code and message), which name no URL.
  const cause = error instanceof Error && error.cause instanceof Error ? errorField(error.cause) : undefined;
  log('warn', 'source failed', { kind: source.kind, ...sourceLogFields(source.kind, source.ident), failures, error: errorField(error), cause });
  await replaceSource({ ...source, failures, next_poll_at: new Date(next).toISOString() });
  return next;
}

/**
 * One poll of one source (the job's handler). Answers when to poll next, or
 * null when nothing watches the source any more (it is forgotten). `signal`
 * is the run's deadline: a read it ends is a failure of the source, which
 * backs off like any other.
 */
export async function pollSource(kind: Kind, ident: string, signal?: AbortSignal): Promise<number | null> {
  const source = await getSource(kind, ident);
  if (!source) return null;
  const watchers = await watchersOf(kind, ident);
  if (watchers.length === 0) {
    await deleteSource(source);
    return null;
  }
  const now = Date.now();
  let fetched: Awaited<ReturnType<typeof itemsOf>>;
  try {
    fetched = await itemsOf(source, signal);
  } catch (error) {
    return failed(source, error, now);
  }
  const next = now + pollIntervalMs();
  const polled: Source = { ...source, failures: 0, next_poll_at: new Date(next).toISOString() };
  if (fetched) {
    const recent = recentOf(fetched.items);
    const seen = new Set(source.seen);
    // Handed to units before they are recorded as seen: a poll that stops in between hands them again (the units are keyed, the marks stop doubles).
    await fanOut(
      kind,
      ident,
      recent.filter((i) => !seen.has(seenKey(i.key))),
      watchers,
    );
    polled.seen = seenAfter(source.seen, recent);
    polled.latest = latestOf(kind, fetched.items) ?? source.latest;
    if ('etag' in fetched) {
      polled.etag = fetched.etag ?? null;
      polled.last_modified = fetched.lastModified ?? null;
    }
  }
  // A poll that lost the write to an overlapping one changes nothing: its units were keyed as the other's.
  await replaceSource(polled);
  return next;
}

/**
 * What a poll does with a stream account: `announce` a session it has not
 * announced, `adopt` a session a send already announced (the send named no
 * session; the one live within 30 minutes of it is that one), or nothing.
 */
export function streamStep(
  source: Pick<Source, 'live_session' | 'live_since'>,
  stream: { id: string; started_at: number | null } | undefined,
  now: number,
): 'announce' | 'adopt' | null {
  if (!stream || stream.id === source.live_session) return null;
  const bySend = source.live_session?.startsWith('send-') && source.live_since !== null;
  if (bySend && Math.abs((stream.started_at ?? now) - source.live_since!) < STREAM_SESSION_MS) return 'adopt';
  return 'announce';
}

/** How many shards poll `accounts` stream accounts: one, doubled while a shard would hold more than {@link STREAMS_PER_SHARD}, at most `STREAM_BUCKETS`. */
export function streamShardCount(accounts: number): number {
  let shards = 1;
  while (shards < STREAM_BUCKETS && accounts > shards * STREAMS_PER_SHARD) shards *= 2;
  return shards;
}

/** The buckets shard `shard` of `shards` reads (the shard count divides the bucket count, so every bucket is read by one shard). */
const bucketsOfShard = (shard: number, shards: number) => Array.from({ length: STREAM_BUCKETS }, (_, b) => b).filter((b) => b % shards === shard);

/**
 * One poll of one shard of the stream accounts, 100 a request. Answers when
 * to poll next, or null when the shard is not needed (no account, or fewer
 * accounts than make this shard). Shard 0 asks for the other shards the
 * count needs; a shard past the count ends, its accounts now another's. A
 * request that fails backs off its own accounts only; announcements go to
 * units, so an account many channels watch delays no other.
 */
export async function pollStreams(shard: number, signal?: AbortSignal): Promise<number | null> {
  const count = await streamAccountCount();
  const shards = streamShardCount(count);
  if (count === 0) return null;
  if (shard >= shards) {
    // A shard the count no longer needs (or one of an earlier layout) hands its accounts to the shards that are: shard 0 runs.
    await requestLater(STREAM_JOB, 'shard:0', pollIntervalMs());
    return null;
  }
  const accounts = await streamAccountsOfBuckets(bucketsOfShard(shard, shards));
  // Each is one conditional write, a no-op while that shard's run is already waiting.
  if (shard === 0) for (let other = 1; other < shards; other++) await requestLater(STREAM_JOB, `shard:${other}`, pollIntervalMs());
  const now = Date.now();
  const next = now + pollIntervalMs();
  // Shard 0 goes on while any account is watched: it is the one that asks for the others.
  if (accounts.length === 0) return shard === 0 ? next : null;
  const chunks: string[][] = [];
  for (let i = 0; i < accounts.length; i += STREAMS_PER_REQUEST) chunks.push(accounts.slice(i, i + STREAMS_PER_REQUEST));
  await Promise.all(
    chunks.map(async (chunk) => {
      const sources = await getSources(chunk.map((ident) => ({ kind: 'stream' as const, ident })));
      let live: Awaited<ReturnType<typeof liveStreams>>;
      try {
        live = await liveStreams(chunk, signal);
      } catch (error) {
        await Promise.all([...sources.values()].map((source) => failed(source, error, now)));
        return;
      }
      const liveBy = new Map(live.map((s) => [s.account, s]));
      await Promise.all(
        [...sources.values()].map(async (source) => {
          const stream = liveBy.get(source.ident);
          const updated: Source = { ...source, failures: 0, next_poll_at: new Date(next).toISOString() };
          const step = streamStep(source, stream, now);
          if (step === 'announce') {
            await fanOut('stream', source.ident, [
              {
                key: `s:${stream!.id}`,
                title: stream!.title || `${source.identifier} is live`,
                description: null,
                link: streamUrl(source.identifier),
                published: now,
              },
            ]);
          }
          if (step) Object.assign(updated, { live_session: stream!.id, live_since: step === 'adopt' ? source.live_since : now });
          await replaceSource(updated);
        }),
      );
    }),
  );
  return next;
}

/** Polls every shard of the stream accounts once (tests, bench). */
export async function pollAllStreams(): Promise<(number | null)[]> {
  const shards = streamShardCount(await streamAccountCount());
  return Promise.all(Array.from({ length: shards }, (_, shard) => pollStreams(shard)));
}

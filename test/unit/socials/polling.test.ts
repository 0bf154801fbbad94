/** The pure parts of polling: which source a poll job names, what a stream poll does with a session, and the bounded memory of seen items. */
import { describe, expect, it } from 'vitest';
import { SEEN_MAX, STREAM_SESSION_MS, pollJob, polledSource, recentOf, seenAfter, streamShardCount, streamStep } from '#functions/socials/polling.js';
import { seenKey } from '#functions/socials/store.js';

describe('poll jobs', () => {
  it('key a feed of 2048 characters by a fixed-size key and name it in the payload', () => {
    const url = `https://example.org/feed?${'q'.repeat(2020)}`;
    const { key, payload } = pollJob('rss', url);
    expect(key).toMatch(/^rss:[A-Za-z0-9_-]{43}$/);
    expect(polledSource(payload, key)).toEqual({ kind: 'rss', ident: url });
    // Shard 0 runs while any account is watched, and asks for the others when the count needs them.
    expect(pollJob('stream', 'someone').key).toBe('shard:0');
  });

  it('poll stream accounts in one shard until a shard would hold more than 1000, then in twice as many, at most 8', () => {
    expect([1, 22, 250, 1000, 1001, 2000, 2001, 4001, 8001, 250_000].map(streamShardCount)).toEqual([1, 1, 1, 1, 2, 2, 4, 8, 8, 8]);
  });

  it('read the source from the key of work asked for before payloads named it, and nothing from a stranger key', () => {
    expect(polledSource({}, 'forum:gaming')).toEqual({ kind: 'forum', ident: 'gaming' });
    expect(polledSource({}, 'stream:x')).toBeNull();
    expect(polledSource({}, 'forum:')).toBeNull();
  });
});

describe('a stream poll', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  it('announces a new session, adopts the one a send announced within 30 minutes, and does nothing for the one it knows', () => {
    const live = (id: string, startedAgoMs: number | null) => ({ id, started_at: startedAgoMs === null ? null : now - startedAgoMs });
    expect(streamStep({ live_session: null, live_since: null }, live('1', 0), now)).toBe('announce');
    expect(streamStep({ live_session: '1', live_since: now - 60_000 }, live('1', 60_000), now)).toBeNull();
    expect(streamStep({ live_session: '1', live_since: now - 60_000 }, undefined, now)).toBeNull();
    expect(streamStep({ live_session: '1', live_since: now - 60_000 }, live('2', 0), now)).toBe('announce');
    const sent = { live_session: `send-${now - 120_000}`, live_since: now - 120_000 };
    expect(streamStep(sent, live('7', 0), now)).toBe('adopt');
    expect(streamStep(sent, live('7', 10 * 60_000), now)).toBe('adopt');
    expect(streamStep(sent, live('7', null), now)).toBe('adopt');
    expect(streamStep({ ...sent, live_since: now - STREAM_SESSION_MS - 1 }, live('7', 0), now)).toBe('announce');
  });
});

describe('the memory of seen items', () => {
  const items = (n: number, from = 1) =>
    Array.from({ length: n }, (_, i) => ({ key: `g:${from + i}`, title: '', description: null, link: null, published: from + i }));
  it('keeps the newest 1000 of what a feed holds, newest first, as fixed-size keys', () => {
    const seen = seenAfter([], recentOf(items(8000)));
    expect(seen).toHaveLength(SEEN_MAX);
    expect(seen[0]).toBe(seenKey('g:8000'));
    expect(seen.at(-1)).toBe(seenKey('g:7001'));
    expect(seen.every((k) => k.length === 43)).toBe(true);
  });

  it('keeps what it remembered after what the feed holds now, up to 1000', () => {
    const seen = seenAfter(seenAfter([], items(10)), items(3, 11));
    expect(seen.slice(0, 4)).toEqual([seenKey('g:13'), seenKey('g:12'), seenKey('g:11'), seenKey('g:10')]);
    expect(seen).toHaveLength(13);
  });
});

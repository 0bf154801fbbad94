import { describe, expect, it } from 'vitest';
import { MAX_REFRESH_SPACING_MS, refreshSpacing } from '#functions/polls/lifecycle.js';
import { REFRESH_DELAY_MS } from '#functions/polls/refresh-request.js';

const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const created_at = new Date(NOW - 3_600_000).toISOString();

describe('refreshSpacing', () => {
  it('keeps the shortest window for a quiet poll, a few votes a second, and a poll never voted on', () => {
    expect(refreshSpacing({ created_at }, NOW)).toBe(REFRESH_DELAY_MS);
    expect(refreshSpacing({ created_at, vote_seq: 1 }, NOW)).toBe(REFRESH_DELAY_MS);
    // 6 votes in the 2 s since the render before: 3 a second.
    expect(refreshSpacing({ created_at, vote_seq: 16, rendered_seq: 10, rendered_at: NOW - 2000 }, NOW)).toBe(REFRESH_DELAY_MS);
  });

  it('widens with the votes a second since the render before, up to its cap', () => {
    // 20 a second: 7.5 s.
    expect(refreshSpacing({ created_at, vote_seq: 140, rendered_seq: 100, rendered_at: NOW - 2000 }, NOW)).toBe(7500);
    // A rush of 200 a second: the cap.
    expect(refreshSpacing({ created_at, vote_seq: 1400, rendered_seq: 1000, rendered_at: NOW - 2000 }, NOW)).toBe(MAX_REFRESH_SPACING_MS);
    // A first render counts from the poll's creation: 60 votes in its first 2 s.
    expect(refreshSpacing({ created_at: new Date(NOW - 2000).toISOString(), vote_seq: 60 }, NOW)).toBe(11_250);
  });

  it('reads a burst right after the render before over the shortest window, not over a few milliseconds', () => {
    expect(refreshSpacing({ created_at, vote_seq: 13, rendered_seq: 10, rendered_at: NOW - 10 }, NOW)).toBe(REFRESH_DELAY_MS);
  });
});

/**
 * Pages of lists read whole and lists shown in other answers stay within
 * their bytes (behaviour §15): a page ends early and its cursor continues
 * right after it; a shown list is a head of the list, at most 1000 records.
 */
import { describe, expect, it } from 'vitest';
import { pageWithin } from '#shared/db/page.js';
import { LIST_BYTES, jsonBytes } from '#shared/http/limits.js';
import { answerList, shownList } from '#shared/modules/store.js';
import { withCursorSecret } from '#test/helpers/cursor-secret.js';

withCursorSecret();

const scope = { guildId: '111111111111111111', family: 'unit/list', filter: {} };
/** A record of about `kib` KiB of JSON, numbered. */
const record = (n: number, kib: number) => ({ n, text: 'x'.repeat(kib * 1024) });

describe('pageWithin', () => {
  it('answers page_size records while they fit, and no cursor on the last page', async () => {
    const all = Array.from({ length: 25 }, (_, i) => record(i, 1));
    const first = await pageWithin(all, { page: 1, page_size: 10 }, scope);
    expect(first.items.map((r) => r.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const third = await pageWithin(all, { page: 3, page_size: 10 }, scope);
    expect(third.items.map((r) => r.n)).toEqual([20, 21, 22, 23, 24]);
    expect(third.next_cursor).toBeNull();
    expect(third.total).toBe(25);
  });

  it('ends a page early at its bytes, and the cursors lead to every record once', async () => {
    // 100 records of 20 KiB: a page of 100 would be some 2 MiB.
    const all = Array.from({ length: 100 }, (_, i) => record(i, 20));
    const seen: number[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (let page = 1; page < 10; page++) {
      const got = await pageWithin(all, { page: 1, page_size: 100, cursor }, scope);
      expect(got.page).toBe(page);
      expect(jsonBytes(got.items)).toBeLessThanOrEqual(LIST_BYTES);
      sizes.push(got.items.length);
      seen.push(...got.items.map((r) => r.n));
      if (got.next_cursor === null) break;
      cursor = got.next_cursor;
    }
    expect(sizes[0]).toBeLessThan(100);
    expect(sizes[0]).toBeGreaterThan(30);
    expect(seen).toEqual(all.map((r) => r.n));
  });
});

describe('lists shown in other answers', () => {
  it('shows at most 1000 records and counts them all', () => {
    const list = answerList(
      'things',
      Array.from({ length: 1500 }, (_, i) => ({ n: i })),
    );
    expect(list.things).toHaveLength(1000);
    expect(list.things_total).toBe(1500);
  });

  it('shows the head that fits in the bytes given, and reads no page past it', async () => {
    let pagesRead = 0;
    async function* pages() {
      for (let p = 0; p < 100; p++) {
        pagesRead++;
        yield Array.from({ length: 10 }, (_, i) => record(p * 10 + i, 10));
      }
    }
    const shown = await shownList(pages(), 200 * 1024);
    expect(shown.map((r) => r.n)).toEqual(Array.from({ length: shown.length }, (_, i) => i));
    expect(jsonBytes(shown)).toBeLessThanOrEqual(200 * 1024);
    expect(shown.length).toBe(19);
    expect(pagesRead).toBe(2);
  });
});

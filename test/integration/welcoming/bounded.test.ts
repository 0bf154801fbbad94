/**
 * Welcoming answers stay under 1 MiB when a guild keeps every response it may
 * (20 of each of the 3 types), each as large as a create's body carries
 * (behaviour §15): the list ends early and its `next_cursor` leads on to every
 * response once; the snapshot and the settings delete show the newest that
 * fit and `responses_total`.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, MAX_BODY_BYTES } from '#shared/http/limits.js';
import { type World, failed, ok, startWorld, welcomingGuild } from './helpers.js';

const world = startWorld();

/**
 * Embed JSON as long as a create's body may carry: a title with quotes and a
 * description within the embed limits, then line breaks, each of which the
 * JSON of the request and of every answer writes as two bytes (`\n`).
 */
function widestEmbed(guild: string, type: number, n: number): string {
  const embed = JSON.stringify({ title: `"Welcome" #${n}`, description: 'Hello <user_mention>, welcome to "<server_name>"' });
  const bodyOf = (content: string) => JSON.stringify({ guild_id: guild, response_type: type, is_embed: true, content });
  const room = MAX_BODY_BYTES - Buffer.byteLength(bodyOf(embed));
  const content = embed + '\n'.repeat(Math.floor(room / 2));
  expect(Buffer.byteLength(bodyOf(content))).toBeGreaterThan(MAX_BODY_BYTES - 2);
  return content;
}

/** A guild with 20 responses of each type at their largest, made through the API; their IDs newest first. */
async function fullGuild(): Promise<{ guild: string; ids: string[]; byType: Record<number, string[]> }> {
  const guild = await welcomingGuild(world);
  const created: { response_id: string; response_type: number }[] = [];
  for (let n = 0; n < 60; n++) {
    const type = (n % 3) + 1;
    const res = await world.call('POST', '/responses', {
      body: { guild_id: guild, response_type: type, is_embed: true, content: widestEmbed(guild, type, n) },
    });
    created.push(ok(res).response);
  }
  // The list is newest first, in the order of the IDs (minted from their time).
  const newestFirst = (type?: number) =>
    created
      .filter((r) => type === undefined || r.response_type === type)
      .map((r) => r.response_id)
      .sort()
      .reverse();
  return { guild, ids: newestFirst(), byType: { 1: newestFirst(1), 2: newestFirst(2), 3: newestFirst(3) } };
}

/** Follows `next_cursor` from the first answer to the last; every answer under 1 MiB. */
async function everyPage(w: World, query: Record<string, string>) {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const res = await w.call('GET', '/responses', { query: { ...query, ...(cursor === null ? {} : { cursor }) } });
    const data = ok(res);
    expect(Buffer.byteLength(res.text)).toBeLessThan(MAX_ANSWER_BYTES);
    pages.push(data.responses.map((r: { response_id: string }) => r.response_id));
    cursor = data.next_cursor;
  } while (cursor !== null && pages.length < 70);
  return pages;
}

describe('welcoming responses at their limits', { timeout: 180_000 }, () => {
  it('ends the list early under 1 MiB, and its cursors lead to every response once; snapshot and settings delete show the newest that fit', async () => {
    const { guild, ids, byType } = await fullGuild();

    const pages = await everyPage(world, { guild_id: guild });
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]!.length).toBeGreaterThan(0);
    expect(pages.flat()).toEqual(ids);
    // A filtered list pages the same way, its cursors bound to its filter.
    const ofType2 = await everyPage(world, { guild_id: guild, response_type: '2' });
    expect(ofType2.flat()).toEqual(byType[2]);
    const first = ok(await world.call('GET', '/responses', { query: { guild_id: guild } }));
    expect(first.next_cursor).toEqual(expect.any(String));
    const crossed = failed(
      await world.call('GET', '/responses', { query: { guild_id: guild, response_type: '2', cursor: first.next_cursor } }),
      422,
      'Unprocessable Entity',
    );
    expect(crossed).toContain("'cursor'");
    expect(failed(await world.call('GET', '/responses', { query: { guild_id: guild, cursor: 'c2.bm90.bm90' } }), 422, 'Unprocessable Entity')).toContain(
      "'cursor'",
    );

    // The snapshot: the newest responses that fit, and how many there are.
    for (const path of ['/disable', '/enable']) {
      const res = await world.call('POST', path, { body: { guild_id: guild } });
      const snapshot = ok(res);
      expect(Buffer.byteLength(res.text)).toBeLessThan(MAX_ANSWER_BYTES);
      expect(snapshot.responses_total).toBe(60);
      expect(snapshot.responses.length).toBeGreaterThan(0);
      expect(snapshot.responses.length).toBeLessThan(60);
      expect(snapshot.responses.map((r: { response_id: string }) => r.response_id)).toEqual(ids.slice(0, snapshot.responses.length));
    }

    const deleted = await world.call('DELETE', '/settings', { body: { guild_id: guild } });
    const removed = ok(deleted);
    expect(Buffer.byteLength(deleted.text)).toBeLessThan(MAX_ANSWER_BYTES);
    expect(removed.responses_total).toBe(60);
    expect(removed.responses.length).toBeGreaterThan(0);
    expect(removed.responses.length).toBeLessThan(60);
    expect(removed.responses.map((r: { response_id: string }) => r.response_id)).toEqual(ids.slice(0, removed.responses.length));
    // Every response went, not only those shown.
    const again = ok(await world.call('POST', '/enable', { body: { guild_id: guild } }));
    expect(again).toMatchObject({ responses: [], responses_total: 0 });
    expect(ok(await world.call('GET', '/responses', { query: { guild_id: guild } }))).toEqual({ responses: [], next_cursor: null });
  });
});

/**
 * Giveaways at scale (behaviour §15): entrants as items of their own, the
 * record listing them up to 1000, the paged participants route with signed
 * cursors, the end drawing in pieces that are safe to repeat, verify-draw
 * over the paged list, the paged giveaway list, and giveaways stored in the
 * old layout. Large lists are seeded straight into the table.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawRound, drawRounds, entrantsHash } from '#functions/giveaways/draw.js';
import { endGiveaway } from '#functions/giveaways/lifecycle.js';
import { GiveawayEntity, getGiveaway } from '#functions/giveaways/store.js';
import { TOKEN_VARIABLE, verifyDraw } from '#functions/giveaways/verify-draw.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { errorOf, ok, SERVICE_TOKEN, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import type { Message } from '#shared/platform/types.js';
import { membersOf } from '../welcoming/members-sandbox.js';
import { seedEntrants } from './seed-entrants.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const GA = '/modules/giveaways';
const numerically = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : 1);

async function giveawayGuild(): Promise<string> {
  const guild = snowflake();
  ok(await service.call('POST', `${GA}/enable`, { body: { guild_id: guild } }));
  return guild;
}

async function create(guild: string, winnerCount = 3) {
  const body = {
    guild_id: guild,
    channel_id: await sandboxOf(service).channelIn(guild),
    giveaway_owner_id: snowflake(),
    prize: 'A golden mug',
    winner_count: winnerCount,
    end_time: '1h',
    description: null,
  };
  return ok(await service.call('POST', `${GA}/entries`, { body })).entry;
}

const messagesIn = async (channel: string) => (await membersOf(service).api<Message[]>(`/channels/${channel}/messages?limit=100`)).body;
const act = (guild: string, entryId: string, action: string, member: string | null) =>
  service.call('POST', `${GA}/entries/${entryId}/${action}`, { body: { guild_id: guild }, headers: member ? { 'x-acting-user-id': member } : {} });
const get = async (guild: string, entryId: string) => ok(await service.call('GET', `${GA}/entries/${entryId}`, { query: { guild_id: guild } })).entry;
const participants = (guild: string, entryId: string, query: Record<string, string | number> = {}) =>
  service.call('GET', `${GA}/entries/${entryId}/participants`, { query: { guild_id: guild, ...query } });

/** Every entrant through the participants route, a page after the other by its cursor. */
async function pagedEntrants(guild: string, entryId: string, pageSize: number) {
  const pages: { participants: string[]; page: number; total: number; next_cursor: string | null }[] = [];
  let cursor: string | undefined;
  do {
    const page = ok(await participants(guild, entryId, { page_size: pageSize, ...(cursor ? { cursor } : {}) }));
    pages.push(page);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return pages;
}

describe('giveaways at scale', () => {
  it('lists entrants in the record up to 1000, then null with the exact count', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild);
    const seeded = await seedEntrants(guild, g.entry_id, 999);
    const last = snowflake();
    ok(await act(guild, g.entry_id, 'enter', last));
    const full = await get(guild, g.entry_id);
    expect(full.participant_count).toBe(1000);
    expect(full.participants).toBe([...seeded, last].sort(numerically).join(','));

    const over = snowflake();
    ok(await act(guild, g.entry_id, 'enter', over));
    const big = await get(guild, g.entry_id);
    expect(big).toMatchObject({ participants: null, participant_count: 1001 });
    const listed = ok(await service.call('GET', `${GA}/entries`, { query: { guild_id: guild } }));
    expect(listed.entries[0]).toMatchObject({ entry_id: g.entry_id, participants: null, participant_count: 1001 });

    // Entering twice is still refused, and changes no count; leaving brings the list back.
    expect((await act(guild, g.entry_id, 'enter', seeded[500]!)).status).toBe(422);
    ok(await act(guild, g.entry_id, 'leave', over));
    expect((await act(guild, g.entry_id, 'leave', over)).status).toBe(422);
    const back = await get(guild, g.entry_id);
    expect(back.participant_count).toBe(1000);
    expect(back.participants!.split(',')).not.toContain(over);
  });

  it('pages every entrant in numeric order with signed cursors, or by page number', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild);
    const members = (await seedEntrants(guild, g.entry_id, 2500)).sort(numerically);
    const pages = await pagedEntrants(guild, g.entry_id, 1000);
    expect(pages.map((p) => [p.page, p.participants.length, p.total])).toEqual([
      [1, 1000, 2500],
      [2, 1000, 2500],
      [3, 500, 2500],
    ]);
    expect(pages.flatMap((p) => p.participants)).toEqual(members);
    expect(pages.at(-1)!.next_cursor).toBeNull();

    // Page 2 by number is page 2 by cursor; past the end is empty.
    expect(ok(await participants(guild, g.entry_id, { page: 2, page_size: 1000 })).participants).toEqual(pages[1]!.participants);
    expect(ok(await participants(guild, g.entry_id, { page: 7, page_size: 1000 })).participants).toEqual([]);
    const first = ok(await participants(guild, g.entry_id));
    expect(first).toMatchObject({ page: 1, page_size: 10, total: 2500, participants: members.slice(0, 10) });

    // A cursor works only as issued, for this giveaway and guild.
    const cursor = pages[0]!.next_cursor!;
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    const refused = await participants(guild, g.entry_id, { page_size: 1000, cursor: tampered });
    expect(refused.status).toBe(422);
    expect(errorOf(refused).message).toContain("'cursor'");
    const other = await create(guild);
    expect((await participants(guild, other.entry_id, { page_size: 1000, cursor })).status).toBe(422);
    expect((await participants(guild, g.entry_id, { page_size: 1001 })).status).toBe(422);
    expect((await participants(guild, 'no-such-giveaway')).status).toBe(404);
  });

  it('ends with 5,000 entrants in pieces, each safe to repeat, and verify-draw repeats the draw from the paged list', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild, 4);
    const members = await seedEntrants(guild, g.entry_id, 5000);

    // Pieces of 1000: each run reads one and keeps where it stands; round 1 waits for the last.
    expect(await endGiveaway(guild, g.entry_id, 1000)).toEqual({ next: expect.any(Number) });
    expect(await endGiveaway(guild, g.entry_id, 1000)).toEqual({ next: expect.any(Number) });
    const mid = await getGiveaway(guild, g.entry_id);
    expect(mid).toMatchObject({ status: 'running', rounds: [], seed: null, _draw: { count: 5000, read: 2000 } });
    // Still running while it draws (CONTRACT 16): nothing of the end shows before all of it does.
    expect(await get(guild, g.entry_id)).toMatchObject({ status: 'running', winners: '', seed: null, edited_with_results: false, delete_at: null, rounds: [] });
    // The rest delivered twice at once, each time: one of each pair writes its piece, the other changes nothing.
    let runs = 0;
    while ((await Promise.all([endGiveaway(guild, g.entry_id, 1000), endGiveaway(guild, g.entry_id, 1000)])).some(Boolean)) {
      expect(++runs).toBeLessThan(6);
    }
    const ended = await get(guild, g.entry_id);
    await endGiveaway(guild, g.entry_id, 1000);
    expect(await get(guild, g.entry_id)).toEqual(ended);

    const [round1] = drawRounds(ended.seed, g.entry_id, 1, 4, members);
    expect(ended).toMatchObject({
      status: 'ended',
      participants: null,
      participant_count: 5000,
      winners: round1!.join(','),
      participants_hash: entrantsHash(members),
    });
    expect(ended.rounds).toHaveLength(1);
    const announcements = (await messagesIn(g.channel_id)).filter((m) => m.id !== g.message_id);
    expect(announcements).toHaveLength(1);

    // A reroll reads the whole list and draws round 2 from what round 1 left.
    ok(await act(guild, g.entry_id, 'reroll', null));
    const rerolled = await get(guild, g.entry_id);
    expect(rerolled.rounds.map((r: { winners: string[] }) => r.winners)).toEqual(drawRounds(ended.seed, g.entry_id, 2, 4, members));

    // verify-draw: from the service (paging /participants), and from files.
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret;
    const live = await verifyDraw(['--url', service.url, '--guild', guild, '--giveaway', g.entry_id], { [TOKEN_VARIABLE]: key });
    expect(live.code, live.lines.join('\n')).toBe(0);
    expect(live.lines).toContain('pass  entrants: their hash is participants_hash');
    const dir = mkdtempSync(join(tmpdir(), 'verify-draw-'));
    try {
      const record = join(dir, 'giveaway.json');
      const list = join(dir, 'entrants.txt');
      writeFileSync(record, JSON.stringify({ success: true, data: { entry: rerolled } }));
      expect(await verifyDraw([record], {})).toMatchObject({ code: 2, lines: [expect.stringContaining('--participants')] });
      writeFileSync(list, [...members].reverse().join('\n'));
      expect(await verifyDraw([record, '--participants', list], {})).toMatchObject({ code: 0 });
      // One entrant left out: the count and the hash no longer hold, nor the draw.
      writeFileSync(list, members.slice(1).join('\n'));
      const short = await verifyDraw([record, '--participants', list], {});
      expect(short.code).toBe(1);
      expect(short.lines.filter((l) => l.startsWith('FAIL  entrants'))).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await verifyDraw(['--url', service.url, '--guild', guild, '--giveaway', g.entry_id], { [TOKEN_VARIABLE]: SERVICE_TOKEN })).toMatchObject({
      code: 0,
    });
  }, 120_000);

  it('rerolls 12,000 entrants from the places the end kept, and from the whole list once a member left it', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild, 50);
    const members = await seedEntrants(guild, g.entry_id, 12_000);
    while (await endGiveaway(guild, g.entry_id));
    for (let i = 0; i < 2; i++) ok(await act(guild, g.entry_id, 'reroll', null));
    const seed = (await get(guild, g.entry_id)).seed;
    const expected = drawRounds(seed, g.entry_id, 3, 50, members);
    expect((await get(guild, g.entry_id)).rounds.map((r: { winners: string[] }) => r.winners)).toEqual(expected);
    // Drawn from the places: the winners' places were kept for each round, past the first mark too.
    const stored = await getGiveaway(guild, g.entry_id);
    expect(stored!._places).toHaveLength(3);
    expect(stored!._places!.flat().some((place) => place >= 10_000)).toBe(true);

    // A member who never won is deleted for privacy: the places no longer hold, and the next round reads the list as it stands.
    const drawn = new Set(expected.flat());
    const leaving = members.find((m) => !drawn.has(m))!;
    ok(await service.call('DELETE', `${GA}/privacy/delete-user-entries`, { body: { guild_id: guild, privacy_member_id: leaving } }));
    ok(await act(guild, g.entry_id, 'reroll', null));
    const after = await get(guild, g.entry_id);
    const rest = members.filter((m) => m !== leaving);
    expect(after.rounds.at(-1).winners).toEqual(drawRound(seed, g.entry_id, 4, 50, rest, expected.flat()));
  }, 120_000);

  it('pages the giveaway list by key, newest first, with its total', async () => {
    const guild = await giveawayGuild();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await create(guild)).entry_id);
    const newestFirst = [...created].reverse();
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const page = ok(await service.call('GET', `${GA}/entries`, { query: { guild_id: guild, page_size: 3, ...(cursor ? { cursor } : {}) } }));
      expect(page.total).toBe(7);
      sizes.push(page.entries.length);
      seen.push(...page.entries.map((e: { entry_id: string }) => e.entry_id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(newestFirst);
    const third = ok(await service.call('GET', `${GA}/entries`, { query: { guild_id: guild, page: 3, page_size: 3 } }));
    expect(third).toMatchObject({ page: 3, page_size: 3, total: 7, next_cursor: null });
    expect(third.entries.map((e: { entry_id: string }) => e.entry_id)).toEqual(newestFirst.slice(6));
    const byDefault = ok(await service.call('GET', `${GA}/entries`, { query: { guild_id: guild } }));
    expect(byDefault).toMatchObject({ page: 1, page_size: 10, total: 7, next_cursor: null });
    expect((await service.call('GET', `${GA}/entries`, { query: { guild_id: guild, page_size: 51 } })).status).toBe(422);
    expect((await service.call('GET', `${GA}/entries`, { query: { guild_id: guild, page: 0 } })).status).toBe(422);
    const otherGuild = await giveawayGuild();
    const foreign = await service.call('GET', `${GA}/entries`, {
      query: { guild_id: otherGuild, cursor: ok(await service.call('GET', `${GA}/entries`, { query: { guild_id: guild, page_size: 3 } })).next_cursor },
    });
    expect(foreign.status).toBe(422);
  });

  it('keeps a giveaway stored in the old layout working: enters, leaves, the end and verify-draw', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild, 2);
    const old = Array.from({ length: 6 }, snowflake);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: GiveawayEntity.key({ guildId: guild, entryId: g.entry_id }),
        UpdateExpression: 'SET participants = :set, participant_count = :n',
        ExpressionAttributeValues: { ':set': new Set(old), ':n': old.length },
      }),
    );
    expect((await get(guild, g.entry_id)).participants).toBe([...old].sort(numerically).join(','));
    expect((await act(guild, g.entry_id, 'enter', old[0]!)).status).toBe(422);
    ok(await act(guild, g.entry_id, 'leave', old[1]!));
    const late = snowflake();
    ok(await act(guild, g.entry_id, 'enter', late));
    const entrants = [...old.filter((m) => m !== old[1]), late];
    const before = await get(guild, g.entry_id);
    expect(before.participant_count).toBe(6);
    expect(before.participants).toBe([...entrants].sort(numerically).join(','));
    expect(ok(await participants(guild, g.entry_id, { page_size: 1000 })).participants).toEqual([...entrants].sort(numerically));

    while (await endGiveaway(guild, g.entry_id));
    const ended = await get(guild, g.entry_id);
    expect(ended.winners).toBe(drawRounds(ended.seed, g.entry_id, 1, 2, entrants)[0]!.join(','));
    expect(ended.participants_hash).toBe(entrantsHash(entrants));
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret;
    expect(await verifyDraw(['--url', service.url, '--guild', guild, '--giveaway', g.entry_id], { [TOKEN_VARIABLE]: key })).toMatchObject({ code: 0 });
  });
});

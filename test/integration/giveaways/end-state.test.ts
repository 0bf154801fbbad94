/**
 * A giveaway never shows a half-finished end (CONTRACT 16, behaviour §15
 * "What a read can show"): it stays `running` while its draw reads the
 * entrants piece by piece, enters and leaves past `end_time` are refused as
 * after the end, and one write makes it `ended` with its winners, seed,
 * rounds, `edited_with_results` and `delete_at`, once, whatever is repeated.
 * Large lists are seeded straight into the table, as the bench does.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawRounds, entrantsHash, seedHash } from '#functions/giveaways/draw.js';
import { DRAW_PIECE, endGiveaway, scheduleEnd } from '#functions/giveaways/lifecycle.js';
import { GiveawayEntity, getGiveaway } from '#functions/giveaways/store.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import type { Message } from '#shared/platform/types.js';
import { errorOf, ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { membersOf } from '../welcoming/members-sandbox.js';
import { seedEntrants } from './seed-entrants.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const GA = '/modules/giveaways';

async function giveawayGuild(): Promise<string> {
  const guild = snowflake();
  ok(await service.call('POST', `${GA}/enable`, { body: { guild_id: guild } }));
  return guild;
}

async function create(guild: string, winnerCount: number, owner = snowflake()) {
  const body = {
    guild_id: guild,
    channel_id: await sandboxOf(service).channelIn(guild),
    giveaway_owner_id: owner,
    prize: 'A golden mug',
    winner_count: winnerCount,
    end_time: '1h',
    description: null,
  };
  return ok(await service.call('POST', `${GA}/entries`, { body })).entry;
}

/** The giveaway's end time moved to `at` in the table, as if it had been created to end then. */
async function setEndTime(guild: string, entryId: string, at: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: GiveawayEntity.key({ guildId: guild, entryId }),
      UpdateExpression: 'SET end_time = :at',
      ExpressionAttributeValues: { ':at': at },
    }),
  );
}

const act = (guild: string, entryId: string, action: string, member: string | null) =>
  service.call('POST', `${GA}/entries/${entryId}/${action}`, { body: { guild_id: guild }, headers: member ? { 'x-acting-user-id': member } : {} });
const get = async (guild: string, entryId: string) => ok(await service.call('GET', `${GA}/entries/${entryId}`, { query: { guild_id: guild } })).entry;
const announcementsIn = async (channel: string, messageId: string) =>
  (await membersOf(service).api<Message[]>(`/channels/${channel}/messages?limit=100`)).body.filter((m) => m.id !== messageId);

interface Shown {
  status: string;
  winners: string;
  seed: string | null;
  seed_hash: string;
  edited_with_results: boolean;
  delete_at: string | null;
  rounds: { round: number; winners: string[] }[];
  participants_hash: string | null;
  winner_count: number;
}

/** What CONTRACT 16 lets a read show: running with nothing of the end, or ended with all of it. */
function expectWhole(g: Shown, at: string): void {
  if (g.status === 'running') {
    expect({ winners: g.winners, seed: g.seed, edited_with_results: g.edited_with_results, delete_at: g.delete_at, rounds: g.rounds }, at).toEqual({
      winners: '',
      seed: null,
      edited_with_results: false,
      delete_at: null,
      rounds: [],
    });
    return;
  }
  expect(g.status, at).toBe('ended');
  expect(g.winners.split(',').filter(Boolean), at).toHaveLength(g.winner_count);
  expect(seedHash(g.seed ?? ''), at).toBe(g.seed_hash);
  expect(g.edited_with_results, at).toBe(true);
  expect(g.delete_at, at).not.toBeNull();
  expect(
    g.rounds.map((r) => r.winners.join(',')),
    at,
  ).toEqual([g.winners]);
  expect(g.participants_hash, at).not.toBeNull();
}

describe('a giveaway never shows a half-finished end', () => {
  it('reads 100,000 entrants ending on the scheduler every 100 ms: running until all of the end is written, then all of it', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild, 5);
    const seeding = performance.now();
    const members = await seedEntrants(guild, g.entry_id, 100_000);
    const seedSeconds = (performance.now() - seeding) / 1000;

    // The end falls due now; the scheduler runs it a piece a run.
    const endedAt = new Date().toISOString();
    await setEndTime(guild, g.entry_id, endedAt);
    await scheduleEnd({ guild_id: guild, entry_id: g.entry_id, end_time: endedAt });
    // A read starts every 100 ms, whether or not the one before has answered (under load an answer can take longer).
    const started = performance.now();
    const answers: { at: number; shown: Shown; drawing: boolean; read: number | null }[] = [];
    const inFlight = new Set<Promise<void>>();
    let ended: Shown | null = null;
    const readOnce = async (at: number) => {
      const stored = await getGiveaway(guild, g.entry_id);
      const shown: Shown = await get(guild, g.entry_id);
      answers.push({ at, shown, drawing: stored?._draw !== null && stored?._draw !== undefined, read: stored?._draw?.read ?? null });
      if (shown.status === 'ended') ended ??= shown;
    };
    while (ended === null) {
      expect(performance.now() - started, 'the end took too long').toBeLessThan(240_000);
      const read = readOnce(answers.length + inFlight.size + 1).finally(() => inFlight.delete(read));
      inFlight.add(read);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await Promise.all(inFlight);
    const last: Shown = ended;
    for (const { at, shown } of answers) expectWhole(shown, `read ${at}`);
    const reads = answers.length;
    const readsWhileDrawing = answers.filter((a) => a.drawing && a.shown.status === 'running').length;
    const piecesSeen = new Set(answers.flatMap((a) => (a.read === null ? [] : [a.read])));
    const seconds = (performance.now() - started) / 1000;
    // The reads saw the draw under way, between its pieces: the state the end used to show half-finished.
    expect(readsWhileDrawing).toBeGreaterThan(0);
    console.info(
      `100,000 entrants (seeded in ${seedSeconds.toFixed(1)} s), pieces of ${DRAW_PIECE}: ${Math.ceil(100_000 / DRAW_PIECE)} pieces (draw progress seen at ${[...piecesSeen].sort((a, b) => a - b).join(', ')} entrants read), ${reads} reads in ${seconds.toFixed(1)} s, ${readsWhileDrawing} of them while the draw ran`,
    );

    const [round1] = drawRounds(last.seed!, g.entry_id, 1, 5, members);
    expect(last).toMatchObject({
      status: 'ended',
      participant_count: 100_000,
      participants: null,
      winners: round1!.join(','),
      participants_hash: entrantsHash(members),
      edited_with_results: true,
    });
    expect(Date.parse(last.delete_at!) - Date.parse(endedAt)).toBeGreaterThanOrEqual(604_800_000);
    expect(await announcementsIn(g.channel_id, g.message_id)).toHaveLength(1);
    const shown = await sandboxOf(service).message(g.channel_id, g.message_id);
    expect(shown!.components ?? []).toEqual([]);
    expect(shown!.embeds[0]!.description).toContain(round1!.map((w) => `<@${w}>`).join(', '));
    // Some 25 s on a quiet 2-core machine (most of it seeding); a machine shared with other test runs can take minutes.
  }, 600_000);

  it('refuses enters, leaves and edits past end_time and while the draw runs, with the words it uses after the end', async () => {
    const guild = await giveawayGuild();
    const owner = snowflake();
    const g = await create(guild, 2, owner);
    const members = await seedEntrants(guild, g.entry_id, 3000);
    const closedText = `Unprocessable Entity! Giveaway ${g.entry_id} has ended; entries are closed.`;
    const refusedWith = async (action: string, member: string) => {
      const res = await act(guild, g.entry_id, action, member);
      expect(res.status, `${action}: ${res.text}`).toBe(422);
      return errorOf(res).message;
    };

    // Past end_time, before the end has run: refused already, and the record still says nothing of the end.
    await setEndTime(guild, g.entry_id, new Date(Date.now() - 1000).toISOString());
    expect(await refusedWith('enter', snowflake())).toBe(closedText);
    expect(await refusedWith('leave', members[0]!)).toBe(closedText);
    expect(await get(guild, g.entry_id)).toMatchObject({ status: 'running', participant_count: 3000, winners: '', seed: null });

    // The draw under way (one piece of 1000 read of 3000): still running, and refused the same way.
    expect(await endGiveaway(guild, g.entry_id, 1000)).toEqual({ next: expect.any(Number) });
    expect((await getGiveaway(guild, g.entry_id))!._draw).toMatchObject({ count: 3000, read: 1000 });
    const drawing = await get(guild, g.entry_id);
    expect(drawing).toMatchObject({ status: 'running', winners: '', seed: null, edited_with_results: false, delete_at: null, rounds: [] });
    expect(await refusedWith('enter', snowflake())).toBe(closedText);
    expect(await refusedWith('leave', members[1]!)).toBe(closedText);
    const edit = await service.call('PUT', `${GA}/entries/${g.entry_id}`, {
      body: { guild_id: guild, new_winner_count: 5 },
      headers: { 'x-acting-user-id': owner },
    });
    expect(edit.status).toBe(422);
    expect(errorOf(edit).message).toContain('has ended');
    expect((await act(guild, g.entry_id, 'reroll', owner)).status).toBe(422);
    expect(await get(guild, g.entry_id)).toEqual(drawing);

    while (await endGiveaway(guild, g.entry_id, 1000));
    const ended = await get(guild, g.entry_id);
    expectWhole(ended, 'after the end');
    expect(ended).toMatchObject({ participant_count: 3000, winners: drawRounds(ended.seed, g.entry_id, 1, 2, members)[0]!.join(',') });
    // After the end: the same refusal, word for word.
    expect(await refusedWith('enter', snowflake())).toBe(closedText);
    expect(await refusedWith('leave', members[1]!)).toBe(closedText);
  }, 120_000);

  it('finishes a giveaway an earlier version left ended before its draw, keeping its delete_at, and writes the rest whole', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild, 2);
    const members = await seedEntrants(guild, g.entry_id, 3000);
    expect(await endGiveaway(guild, g.entry_id, 1000)).toEqual({ next: expect.any(Number) });
    // As the version before left it mid-draw: status ended first, delete_at set, no _closed.
    const deleteAt = new Date(Date.now() + 3_600_000).toISOString();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: GiveawayEntity.key({ guildId: guild, entryId: g.entry_id }),
        UpdateExpression: 'SET #s = :ended, delete_at = :at REMOVE #closed',
        ExpressionAttributeNames: { '#s': 'status', '#closed': '_closed' },
        ExpressionAttributeValues: { ':ended': 'ended', ':at': deleteAt },
      }),
    );
    while (await endGiveaway(guild, g.entry_id, 1000));
    const ended = await get(guild, g.entry_id);
    expectWhole(ended, 'finished');
    expect(ended).toMatchObject({
      delete_at: deleteAt,
      winners: drawRounds(ended.seed, g.entry_id, 1, 2, members)[0]!.join(','),
      participants_hash: entrantsHash(members),
    });
    expect(await announcementsIn(g.channel_id, g.message_id)).toHaveLength(1);
  }, 120_000);

  it('ends exactly once when every piece is delivered twice at once and the run that publishes fails after announcing', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild, 3);
    const members = await seedEntrants(guild, g.entry_id, 4000);
    const sandbox = sandboxOf(service);
    // The announcement is posted, then the platform answers an error: the run fails after its effect, before the end is written.
    await sandbox.fault({ method: 'POST', path: `^/channels/${g.channel_id}/messages$`, status: 403, after_effect: true, times: 1 });

    let runs = 0;
    let failed = 0;
    for (;;) {
      const results = await Promise.allSettled([endGiveaway(guild, g.entry_id, 1000), endGiveaway(guild, g.entry_id, 1000)]);
      runs++;
      failed += results.filter((r) => r.status === 'rejected').length;
      expectWhole(await get(guild, g.entry_id), `after run ${runs}`);
      if (results.every((r) => r.status === 'fulfilled' && r.value === undefined)) break;
      expect(runs).toBeLessThan(12);
    }
    expect(failed).toBe(1);
    const ended = await get(guild, g.entry_id);
    // Run again after the end, twice at once: nothing changes.
    await Promise.all([endGiveaway(guild, g.entry_id, 1000), endGiveaway(guild, g.entry_id, 1000)]);
    expect(await get(guild, g.entry_id)).toEqual(ended);

    const [round1] = drawRounds(ended.seed, g.entry_id, 1, 3, members);
    expect(ended).toMatchObject({ status: 'ended', winners: round1!.join(','), participants_hash: entrantsHash(members), edited_with_results: true });
    expect(ended.rounds).toHaveLength(1);
    const announcements = await announcementsIn(g.channel_id, g.message_id);
    expect(announcements).toHaveLength(1);
    expect(announcements[0]!.content).toContain(round1!.map((w) => `<@${w}>`).join(', '));
  }, 120_000);
});

/** Giveaways: create, enter and leave under a rush, the end exactly once, a draw anyone can repeat round by round, rerolls, owners. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawRounds, seedHash } from '#functions/giveaways/draw.js';
import { endGiveaway } from '#functions/giveaways/lifecycle.js';
import { GiveawayEntity } from '#functions/giveaways/store.js';
import { TOKEN_VARIABLE, verifyDraw } from '#functions/giveaways/verify-draw.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import type { Message } from '#shared/platform/types.js';
import { errorOf, ok, SERVICE_TOKEN, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { eventually } from '../polls/helpers.js';
import { membersOf } from '../welcoming/members-sandbox.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ indexLagMs: 2000 });
});
afterAll(() => service.stop());

const GA = '/modules/giveaways';

async function giveawayGuild(): Promise<string> {
  const guild = snowflake();
  ok(await service.call('POST', `${GA}/enable`, { body: { guild_id: guild } }));
  return guild;
}

async function create(guild: string, extra: Record<string, unknown> = {}) {
  const body = {
    guild_id: guild,
    channel_id: await sandboxOf(service).channelIn(guild),
    giveaway_owner_id: snowflake(),
    prize: 'A golden mug',
    winner_count: 2,
    end_time: '1h',
    description: 'Be quick',
    ...extra,
  };
  return ok(await service.call('POST', `${GA}/entries`, { body })).entry;
}

const act = (guild: string, entryId: string, action: string, member: string | null, extra: Record<string, unknown> = {}) =>
  service.call('POST', `${GA}/entries/${entryId}/${action}`, { body: { guild_id: guild, ...extra }, headers: member ? { 'x-acting-user-id': member } : {} });
const get = async (guild: string, entryId: string) => ok(await service.call('GET', `${GA}/entries/${entryId}`, { query: { guild_id: guild } })).entry;
const messagesIn = async (channel: string) => [...(await membersOf(service).api<Message[]>(`/channels/${channel}/messages?limit=100`)).body].reverse();

describe('giveaways', () => {
  it('posts the giveaway with Enter and Leave buttons and publishes the seed hash, not the seed', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild);
    expect(g).toMatchObject({
      guild_id: guild,
      giveaway_id: g.entry_id,
      status: 'running',
      winner_count: 2,
      participants: '',
      participant_count: 0,
      winners: '',
      seed: null,
      delete_at: null,
      edited_with_results: false,
    });
    expect(g.seed_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(g.end_time) - Date.now()).toBeGreaterThan(3500_000);
    const message = await sandboxOf(service).message(g.channel_id, g.message_id);
    expect(message!.embeds[0]!.title).toContain('A golden mug');
    expect(message!.components![0]!.components.map((c: { custom_id?: string }) => c.custom_id)).toEqual([
      `giveaway:enter:${g.entry_id}`,
      `giveaway:leave:${g.entry_id}`,
    ]);
    expect(ok(await service.call('GET', `${GA}/entries`, { query: { guild_id: guild } })).entries.map((e: { entry_id: string }) => e.entry_id)).toEqual([
      g.entry_id,
    ]);
  });

  it('refuses bad input and changes nothing', async () => {
    const guild = await giveawayGuild();
    const channel = await sandboxOf(service).channelIn(guild);
    for (const [extra, status] of [
      [{ end_time: '0s' }, 422],
      [{ end_time: '366d' }, 422],
      [{ end_time: 'tomorrow' }, 422],
      [{ end_time: '2000-01-01T00:00:00Z' }, 422],
      [{ winner_count: 0 }, 422],
      [{ winner_count: 51 }, 422],
      [{ prize: '' }, 422],
      [{ prize: 'x'.repeat(257) }, 422],
      [{ winner_count: '2' }, 400],
      [{ giveaway_owner_id: 'me' }, 400],
    ] as [Record<string, unknown>, number][]) {
      const res = await service.call('POST', `${GA}/entries`, {
        body: { guild_id: guild, channel_id: channel, giveaway_owner_id: snowflake(), prize: 'p', winner_count: 1, ...extra },
      });
      expect(res.status, JSON.stringify(extra)).toBe(status);
    }
    expect(ok(await service.call('GET', `${GA}/entries`, { query: { guild_id: guild } })).entries).toEqual([]);
  });

  it('takes exactly 500 entries from 500 members entering at once, right after creation', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild);
    const members = Array.from({ length: 500 }, snowflake);
    const results = await Promise.all(members.map((m) => act(guild, g.entry_id, 'enter', m)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(500);
    const stored = await get(guild, g.entry_id);
    expect(stored.participant_count).toBe(500);
    expect(stored.participants.split(',').sort()).toEqual([...members].sort());
    // The message shows the count within seconds, in one edit however many came in.
    await eventually(
      async () => (await sandboxOf(service).message(g.channel_id, g.message_id))!.embeds[0]!.description!.includes('**Entrants:** 500'),
      10_000,
      'the entrant count',
    );
    // 500 enters at once, each a transaction local mode's table runs one at a time, on a machine it shares: more than the default 30 s.
  }, 90_000);

  it('refuses entering twice, leaving without having entered, and entering without a member', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild);
    const member = snowflake();
    ok(await act(guild, g.entry_id, 'enter', member));
    const twice = await act(guild, g.entry_id, 'enter', member);
    expect(twice.status).toBe(422);
    expect(errorOf(twice).message).toContain('already entered');
    expect((await act(guild, g.entry_id, 'leave', snowflake())).status).toBe(422);
    ok(await act(guild, g.entry_id, 'leave', member));
    expect((await get(guild, g.entry_id)).participant_count).toBe(0);
    expect((await act(guild, g.entry_id, 'enter', null)).status).toBe(400);
    expect((await act(guild, 'nope', 'enter', member)).status).toBe(404);
  });

  it('ends once under redelivery and racing consumers: winners drawn as anyone can repeat, one announcement, the seed published', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild, { winner_count: 2 });
    const members = Array.from({ length: 7 }, snowflake);
    for (const m of members) ok(await act(guild, g.entry_id, 'enter', m));
    await Promise.all([endGiveaway(guild, g.entry_id), endGiveaway(guild, g.entry_id), endGiveaway(guild, g.entry_id)]);
    await endGiveaway(guild, g.entry_id);
    const ended = await get(guild, g.entry_id);
    expect(ended.status).toBe('ended');
    expect(seedHash(ended.seed)).toBe(g.seed_hash);
    const [round1] = drawRounds(ended.seed, g.entry_id, 1, 2, ended.participants.split(','));
    expect(ended.winners).toBe(round1!.join(','));
    expect(ended.rounds).toEqual([{ round: 1, winners: round1, drawn_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) }]);
    expect(ended.edited_with_results).toBe(true);
    expect(Date.parse(ended.delete_at) - Date.now()).toBeGreaterThan(604_000_000);

    const messages = await messagesIn(g.channel_id);
    const announcements = messages.filter((m) => m.id !== g.message_id);
    expect(announcements).toHaveLength(1);
    expect(announcements[0]!.content).toContain(round1!.map((w) => `<@${w}>`).join(', '));
    const shown = await sandboxOf(service).message(g.channel_id, g.message_id);
    expect(shown!.components ?? []).toEqual([]);
    expect((await act(guild, g.entry_id, 'enter', snowflake())).status).toBe(422);

    // Rerolls draw the next rounds, never a winner twice, until nobody is left.
    const drawn = new Set(round1);
    for (let round = 2; round <= 4; round++) {
      const res = await act(guild, g.entry_id, 'reroll', null);
      expect(res.status, res.text).toBe(200);
      const now = await get(guild, g.entry_id);
      const expected = drawRounds(ended.seed, g.entry_id, round, 2, members).at(-1)!;
      expect(now.winners).toBe(expected.join(','));
      for (const w of expected) {
        expect(drawn.has(w)).toBe(false);
        drawn.add(w);
      }
    }
    const none = await act(guild, g.entry_id, 'reroll', null);
    expect(none.status).toBe(422);
    expect(errorOf(none).message).toContain('nobody left');
  });

  it('says so when nobody entered', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild);
    await endGiveaway(guild, g.entry_id);
    expect((await get(guild, g.entry_id)).winners).toBe('');
    const messages = await messagesIn(g.channel_id);
    expect(messages.some((m) => m.content.includes('no entrants'))).toBe(true);
  });

  it('ends by itself at its end time on the scheduler', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild, { end_time: '2s' });
    ok(await act(guild, g.entry_id, 'enter', snowflake()));
    await eventually(async () => (await get(guild, g.entry_id)).edited_with_results, 15_000, 'the scheduled end');
  });

  it('ends now for its owner: entries close at once and the end draws from them as at its end time', async () => {
    const guild = await giveawayGuild();
    const owner = snowflake();
    const g = await create(guild, { giveaway_owner_id: owner });
    const entrants = [snowflake(), snowflake(), snowflake()];
    for (const member of entrants) ok(await act(guild, g.entry_id, 'enter', member));
    expect((await act(guild, g.entry_id, 'end', snowflake())).status).toBe(403);
    expect(ok(await act(guild, g.entry_id, 'end', owner)).message).toContain('ends now');
    expect((await act(guild, g.entry_id, 'enter', snowflake())).status).toBe(422);
    const ended = await eventually(
      async () => {
        const now = await get(guild, g.entry_id);
        return now.status === 'ended' && now;
      },
      15_000,
      'the giveaway ended',
    );
    const winners = ended.winners.split(',');
    expect(winners).toHaveLength(2);
    expect(winners.every((w: string) => entrants.includes(w))).toBe(true);
    expect(Date.parse(ended.end_time)).toBeLessThanOrEqual(Date.now());
    // Ended: a second end is refused, and changes nothing.
    expect(errorOf(await act(guild, g.entry_id, 'end', owner)).message).toContain('has ended already');
    expect((await get(guild, g.entry_id)).winners).toBe(ended.winners);
  });

  it('lets only the owner edit, reroll or delete', async () => {
    const guild = await giveawayGuild();
    const owner = snowflake();
    const g = await create(guild, { giveaway_owner_id: owner });
    const edit = (member: string | null, body: Record<string, unknown>) =>
      service.call('PUT', `${GA}/entries/${g.entry_id}`, { body: { guild_id: guild, ...body }, headers: member ? { 'x-acting-user-id': member } : {} });
    expect((await edit(snowflake(), { new_prize: 'Stolen' })).status).toBe(403);
    expect(ok(await edit(owner, { new_prize: 'A silver mug', new_winner_count: 3 })).message).toContain('edited');
    expect(await get(guild, g.entry_id)).toMatchObject({ prize: 'A silver mug', winner_count: 3 });
    expect((await sandboxOf(service).message(g.channel_id, g.message_id))!.embeds[0]!.title).toContain('A silver mug');
    expect((await edit(owner, { new_winner_count: 99 })).status).toBe(422);

    const del = (member: string | null) =>
      service.call('DELETE', `${GA}/entries/${g.entry_id}`, { body: { guild_id: guild }, headers: member ? { 'x-acting-user-id': member } : {} });
    expect((await del(snowflake())).status).toBe(403);
    expect(ok(await del(owner)).entry.entry_id).toBe(g.entry_id);
    expect(await sandboxOf(service).message(g.channel_id, g.message_id)).toBeNull();
    expect((await service.call('GET', `${GA}/entries/${g.entry_id}`, { query: { guild_id: guild } })).status).toBe(404);
  });

  it('keeps to its guild and its module state', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild);
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret;
    expect((await service.call('GET', `${GA}/entries`, { token: key, query: { guild_id: snowflake() } })).status).toBe(403);
    expect(
      (await service.call('GET', `${GA}/privacy/get-user-entries`, { token: key, query: { guild_id: guild, privacy_member_id: snowflake() } })).status,
    ).toBe(403);
    ok(await service.call('POST', `${GA}/disable`, { body: { guild_id: guild } }));
    const disabled = await act(guild, g.entry_id, 'enter', snowflake());
    expect(disabled.status).toBe(409);
    const snapshot = ok(await service.call('POST', `${GA}/enable`, { body: { guild_id: guild } }));
    expect(snapshot.giveaways.map((x: { entry_id: string }) => x.entry_id)).toEqual([g.entry_id]);
  });

  it('changes settings, deletes everything with them, and answers privacy', async () => {
    const guild = await giveawayGuild();
    expect(
      ok(await service.call('PUT', `${GA}/settings`, { body: { guild_id: guild, save_duration_timeout: 60, delete_ended_giveaways: null } })).settings,
    ).toMatchObject({
      save_duration_timeout: 60,
      delete_ended_giveaways: false,
    });
    expect((await service.call('PUT', `${GA}/settings`, { body: { guild_id: guild, save_duration_timeout: -1 } })).status).toBe(422);
    const member = snowflake();
    const g = await create(guild, { giveaway_owner_id: member });
    ok(await act(guild, g.entry_id, 'enter', member));
    const query = { guild_id: guild, privacy_member_id: member };
    expect(ok(await service.call('GET', `${GA}/privacy/get-user-entries`, { query })).id).toBe(2);
    ok(await service.call('DELETE', `${GA}/privacy/delete-user-entries`, { body: query }));
    expect(ok(await service.call('GET', `${GA}/privacy/get-user-entries`, { query })).id).toBe(0);
    expect(await get(guild, g.entry_id)).toMatchObject({ owner_id: null, participants: '' });
    const deleted = ok(await service.call('DELETE', `${GA}/settings`, { body: { guild_id: guild } }));
    expect(deleted.giveaways.map((x: { entry_id: string }) => x.entry_id)).toEqual([g.entry_id]);
    expect(ok(await service.call('GET', `${GA}/status`, { query: { guild_id: guild } })).status).toBe(false);
  });

  it('keeps both of two settings changes made at once to different fields, and changes nothing while disabled', async () => {
    const guild = await giveawayGuild();
    const put = (body: Record<string, unknown>) => service.call('PUT', `${GA}/settings`, { body: { guild_id: guild, ...body } });
    const [a, b] = await Promise.all([put({ save_duration_timeout: 120 }), put({ delete_ended_giveaways: true })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(ok(await service.call('GET', `${GA}/settings`, { query: { guild_id: guild } })).settings).toMatchObject({
      save_duration_timeout: 120,
      delete_ended_giveaways: true,
    });
    ok(await service.call('POST', `${GA}/disable`, { body: { guild_id: guild } }));
    const refused = await put({ save_duration_timeout: 5 });
    expect(refused.status).toBe(409);
    expect(errorOf(refused).name).toBe('ModuleDisabledError');
    ok(await service.call('POST', `${GA}/enable`, { body: { guild_id: guild } }));
    expect(ok(await service.call('GET', `${GA}/settings`, { query: { guild_id: guild } })).settings.save_duration_timeout).toBe(120);
  });

  it('keeps every round with its winners and time, names each reroll on the platform, and refuses the 11th reroll', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild, { winner_count: 1 });
    const members = Array.from({ length: 12 }, snowflake);
    for (const m of members) ok(await act(guild, g.entry_id, 'enter', m));
    const started = new Date().toISOString();
    await endGiveaway(guild, g.entry_id);
    for (let reroll = 1; reroll <= 10; reroll++) {
      expect(ok(await act(guild, g.entry_id, 'reroll', null)).message).toContain(`Reroll ${reroll} (round ${reroll + 1})`);
    }
    const record = await get(guild, g.entry_id);
    const drawn = drawRounds(record.seed, g.entry_id, 11, 1, members);
    expect(record.rounds.map((r: { round: number; winners: string[] }) => [r.round, r.winners])).toEqual(drawn.map((winners, i) => [i + 1, winners]));
    const times: string[] = record.rounds.map((r: { drawn_at: string }) => r.drawn_at);
    expect(times).toEqual([...times].sort());
    expect(times[0]! >= started && times[10]! <= new Date().toISOString()).toBe(true);
    expect(record.winners).toBe(drawn[10]!.join(','));

    const announcements = (await messagesIn(g.channel_id)).filter((m) => m.id !== g.message_id).map((m) => m.content);
    expect(announcements.map((c) => c.replace(/! You won \*\*A golden mug\*\*\.$/, ''))).toEqual(
      drawn.map(([winner], i) => (i === 0 ? `Congratulations <@${winner}>` : `Reroll ${i} (round ${i + 1}): congratulations <@${winner}>`)),
    );
    const shown = (await sandboxOf(service).message(g.channel_id, g.message_id))!.embeds[0]!.description!;
    expect(shown).toContain(`**Won by:** <@${drawn[10]![0]}> · Reroll 10 (round 11)`);

    const eleventh = await act(guild, g.entry_id, 'reroll', null);
    expect(eleventh.status).toBe(422);
    expect(errorOf(eleventh).message).toContain('rerolled 10 times, the most a giveaway allows');
    expect(await get(guild, g.entry_id)).toEqual(record);
    expect((await messagesIn(g.channel_id)).filter((m) => m.id !== g.message_id)).toHaveLength(11);
  });

  it('gives rerolls made at once distinct consecutive rounds, each announced once', async () => {
    const guild = await giveawayGuild();
    const owner = snowflake();
    const g = await create(guild, { winner_count: 2, giveaway_owner_id: owner });
    const members = Array.from({ length: 10 }, snowflake);
    for (const m of members) ok(await act(guild, g.entry_id, 'enter', m));
    await endGiveaway(guild, g.entry_id);
    const results = await Promise.all(Array.from({ length: 4 }, () => act(guild, g.entry_id, 'reroll', owner)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const record = await get(guild, g.entry_id);
    const drawn = drawRounds(record.seed, g.entry_id, 5, 2, members);
    expect(record.rounds.map((r: { round: number; winners: string[] }) => [r.round, r.winners])).toEqual(drawn.map((winners, i) => [i + 1, winners]));
    expect(new Set(record.rounds.flatMap((r: { winners: string[] }) => r.winners)).size).toBe(10);
    const announcements = (await messagesIn(g.channel_id)).filter((m) => m.id !== g.message_id).map((m) => m.content);
    expect(announcements).toHaveLength(5);
    for (let round = 2; round <= 5; round++) expect(announcements.filter((c) => c.startsWith(`Reroll ${round - 1} (round ${round}): `))).toHaveLength(1);
  });

  it('takes a member out of every round on a privacy delete', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild, { winner_count: 1 });
    const members = Array.from({ length: 3 }, snowflake);
    for (const m of members) ok(await act(guild, g.entry_id, 'enter', m));
    await endGiveaway(guild, g.entry_id);
    ok(await act(guild, g.entry_id, 'reroll', null));
    const [first] = (await get(guild, g.entry_id)).rounds[0].winners;
    ok(await service.call('DELETE', `${GA}/privacy/delete-user-entries`, { body: { guild_id: guild, privacy_member_id: first } }));
    const after = await get(guild, g.entry_id);
    expect(after.rounds.map((r: { round: number; winners: string[] }) => [r.round, r.winners.includes(first)])).toEqual([
      [1, false],
      [2, false],
    ]);
    expect(after.participants.split(',')).not.toContain(first);
  });

  it('reads a giveaway stored before rounds kept their times, and rerolls it', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild, { winner_count: 1 });
    const members = Array.from({ length: 3 }, snowflake);
    for (const m of members) ok(await act(guild, g.entry_id, 'enter', m));
    await endGiveaway(guild, g.entry_id);
    const [round1] = (await get(guild, g.entry_id)).rounds;
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: GiveawayEntity.key({ guildId: guild, entryId: g.entry_id }),
        UpdateExpression: 'SET #old = :old REMOVE #rounds',
        ExpressionAttributeNames: { '#old': '_rounds', '#rounds': 'rounds' },
        ExpressionAttributeValues: { ':old': [round1.winners] },
      }),
    );
    expect((await get(guild, g.entry_id)).rounds).toEqual([{ round: 1, winners: round1.winners, drawn_at: g.end_time }]);
    ok(await act(guild, g.entry_id, 'reroll', null));
    const after = await get(guild, g.entry_id);
    expect(after.rounds.map((r: { round: number; winners: string[] }) => [r.round, r.winners])).toEqual(
      drawRounds(after.seed, g.entry_id, 2, 1, members).map((w, i) => [i + 1, w]),
    );
  });

  it('lets verify-draw repeat every round from the saved record or from the service, and fail a tampered record', async () => {
    const guild = await giveawayGuild();
    const g = await create(guild, { winner_count: 2 });
    const members = Array.from({ length: 9 }, snowflake);
    for (const m of members) ok(await act(guild, g.entry_id, 'enter', m));
    await endGiveaway(guild, g.entry_id);
    for (let i = 0; i < 3; i++) ok(await act(guild, g.entry_id, 'reroll', null));
    const answer = await service.call('GET', `${GA}/entries/${g.entry_id}`, { query: { guild_id: guild } });
    const dir = mkdtempSync(join(tmpdir(), 'verify-draw-'));
    try {
      // The saved answer, envelope and all, through the command itself.
      const saved = join(dir, 'giveaway.json');
      writeFileSync(saved, answer.text);
      const run = promisify(execFile);
      const { stdout } = await run('node_modules/.bin/tsx', ['functions/giveaways/verify-draw.ts', saved]);
      expect(
        stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => l.replace(/ \(drawn.*|:.*/s, '')),
      ).toEqual(['pass  entrants', 'pass  entrants', 'pass  seed', 'pass  round 1', 'pass  round 2', 'pass  round 3', 'pass  round 4', 'pass  winners']);

      // A changed winner: the command exits 1 and says which round.
      const tampered = structuredClone(answer.body);
      const round3 = tampered.data.entry.rounds[2];
      round3.winners[1] = members.find((m) => !round3.winners.includes(m));
      writeFileSync(saved, JSON.stringify(tampered));
      const failed = await run('node_modules/.bin/tsx', ['functions/giveaways/verify-draw.ts', saved]).then(
        () => null,
        (error: { code: number; stdout: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stdout).toMatch(/^pass {2}round 2 /m);
      expect(failed?.stdout).toMatch(/^FAIL {2}round 3 .*the draw gives/m);

      // A changed round: the giveaway alone, without the envelope.
      const renumbered = structuredClone(answer.body.data.entry);
      renumbered.rounds[1].round = 3;
      writeFileSync(saved, JSON.stringify(renumbered));
      const verdict = await verifyDraw([saved], {});
      expect(verdict.code).toBe(1);
      expect(verdict.lines.find((l) => l.startsWith('FAIL'))).toMatch(/^FAIL {2}round 2 .*kept as round 3/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // From the service, with a guild key in the environment.
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret;
    const fromService = ['--url', service.url, '--guild', guild, '--giveaway', g.entry_id];
    const live = await verifyDraw(fromService, { [TOKEN_VARIABLE]: key });
    expect(live.code, live.lines.join('\n')).toBe(0);
    expect(live.lines.filter((l) => l.startsWith('pass  round'))).toHaveLength(4);
    expect(await verifyDraw(fromService, { [TOKEN_VARIABLE]: SERVICE_TOKEN })).toMatchObject({ code: 0 });
    expect(await verifyDraw(fromService, {})).toMatchObject({ code: 2, lines: [expect.stringContaining(TOKEN_VARIABLE)] });
    expect(await verifyDraw(['--url', service.url, '--guild', guild, '--giveaway', 'nope'], { [TOKEN_VARIABLE]: key })).toMatchObject({
      code: 2,
      lines: [expect.stringContaining('404')],
    });
  });
});

/**
 * Polls at scale (behaviour §15): counts kept on the poll item, `votes`
 * listed up to 200 votes and null above, the paged voters route with signed
 * cursors, refused on anonymous polls, and polls stored before counts were
 * kept. Large polls are seeded straight into the table.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PollEntity, VoterEntity } from '#functions/polls/keys.js';
import { getVoter, writeVoter } from '#functions/polls/store.js';
import { putItems } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { failed, ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { type PollRecord, castVote, createPoll, eventually, getPoll, pollGuild, shownText, voteBody } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const counts = (poll: PollRecord) => poll.answers.map((a) => a.vote_count);
const votersOf = (guild: string, pollId: string, query: Record<string, string | number> = {}) =>
  service.call('GET', `/modules/polls/entry/${pollId}/voters`, { query: { guild_id: guild, ...query } });

/** `n` members voting answer 1, 2, 3, 1, ... written straight into the table as their votes would have left it: voter items, and (`counted`) the poll's counts. */
async function seedVoters(guild: string, pollId: string, n: number, counted: boolean): Promise<string[]> {
  const members = Array.from({ length: n }, snowflake);
  await putItems(
    members.map((memberId, i) =>
      VoterEntity.item(
        { guildId: guild, pollId, memberId },
        { guild_id: guild, poll_id: pollId, member_id: memberId, votes: { [String((i % 3) + 1)]: 1 }, version: 1, updated_at: null },
      ),
    ),
  );
  const per = [0, 1, 2].map((k) => Math.floor((n + 2 - k) / 3));
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: PollEntity.key({ guildId: guild, pollId }),
      ...(counted
        ? {
            UpdateExpression: 'SET count_1 = :a, count_2 = :b, count_3 = :c, members_1 = :a, members_2 = :b, members_3 = :c, vote_total = :n, voter_total = :n',
            ExpressionAttributeValues: { ':a': per[0], ':b': per[1], ':c': per[2], ':n': n },
          }
        : // A poll stored before counts were kept: no counts, no mark.
          { UpdateExpression: 'REMOVE counted' }),
    }),
  );
  return members;
}

describe('a poll with thousands of voters', () => {
  let where: { guild: string; channel: string; owner: string };
  let poll: PollRecord;
  let members: string[];
  beforeAll(async () => {
    where = await pollGuild(service);
    poll = await createPoll(service, where);
    members = await seedVoters(where.guild, poll.poll_id, 5000, true);
  }, 60_000);

  it('answers exact counts with votes null, in a small answer, on its own and on the list; a vote still counts exactly', async () => {
    const res = await getPoll(service, where.guild, poll.poll_id);
    const got = ok(res).poll as PollRecord;
    expect(counts(got)).toEqual([1667, 1667, 1666]);
    expect(got.answers.map((a) => a.votes)).toEqual([null, null, null]);
    expect(res.text.length).toBeLessThan(4096);

    const listed = ok(await service.call('GET', '/modules/polls/entries', { query: { guild_id: where.guild } }));
    expect(listed.polls.map((p: PollRecord) => [p.poll_id, counts(p), p.answers[0]!.votes])).toEqual([[poll.poll_id, [1667, 1667, 1666], null]]);

    const member = snowflake();
    ok(await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 3 })));
    // A member of the seeded ones moves their vote: one count down, one up.
    ok(await castVote(service, members[0]!, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 2 })));
    expect(counts(ok(await getPoll(service, where.guild, poll.poll_id)).poll)).toEqual([1666, 1668, 1667]);
    await eventually(async () => (await shownText(service, poll)).includes('1668 votes'), 15_000, 'the message showing the new counts');
  });

  it('pages every voter with signed cursors, for all answers or one', async () => {
    const seen: string[] = [];
    let query: Record<string, string | number> = { page_size: 1000 };
    for (let pages = 0; pages < 10; pages++) {
      const page = ok(await votersOf(where.guild, poll.poll_id, query));
      expect(page.total).toBe(5001);
      expect(page.page).toBe(pages + 1);
      seen.push(...page.voters.map((v: { user_id: string }) => v.user_id));
      if (page.next_cursor === null) break;
      query = { page_size: 1000, cursor: page.next_cursor };
    }
    expect(seen.length).toBe(5001);
    expect(new Set(seen).size).toBe(5001);
    expect(seen.filter((id) => members.includes(id)).length).toBe(5000);

    const first = ok(await votersOf(where.guild, poll.poll_id, { page_size: 1000 }));
    const byPage = ok(await votersOf(where.guild, poll.poll_id, { page_size: 1000, page: 2 }));
    const byCursor = ok(await votersOf(where.guild, poll.poll_id, { page_size: 1000, cursor: first.next_cursor }));
    expect(byCursor.voters).toEqual(byPage.voters);

    const third = ok(await votersOf(where.guild, poll.poll_id, { answer_id: 3, page_size: 1000 }));
    expect(third.total).toBe(1667);
    expect(third.voters.every((v: { answer_ids: number[] }) => v.answer_ids.join() === '3')).toBe(true);
    expect(third.voters.length).toBe(1000);
    const rest = ok(await votersOf(where.guild, poll.poll_id, { answer_id: 3, page_size: 1000, cursor: third.next_cursor }));
    expect(rest.voters.length).toBe(667);
    expect(rest.next_cursor).toBeNull();
  });

  it('refuses a tampered cursor, a cursor of another answer and an unknown answer with 422, changing nothing', async () => {
    const first = ok(await votersOf(where.guild, poll.poll_id, { page_size: 10 }));
    const cursor: string = first.next_cursor;
    const [version, body, mac] = cursor.split('.');
    const forged = `${version}.${Buffer.from('2:0').toString('base64url')}.${mac}`;
    expect(failed(await votersOf(where.guild, poll.poll_id, { cursor: forged }), 422, 'Unprocessable Entity')).toMatch(/cursor/);
    expect(failed(await votersOf(where.guild, poll.poll_id, { cursor: `${version}.${body}.${mac!.slice(1)}A` }), 422, 'Unprocessable Entity')).toMatch(
      /cursor/,
    );
    expect(failed(await votersOf(where.guild, poll.poll_id, { cursor, answer_id: 1 }), 422, 'Unprocessable Entity')).toMatch(/cursor/);
    expect(failed(await votersOf(where.guild, poll.poll_id, { answer_id: 9 }), 422, 'Unprocessable Entity')).toMatch(/answer_id/);
    expect(failed(await votersOf(where.guild, poll.poll_id, { page_size: 1001 }), 422, 'Unprocessable Entity')).toMatch(/page_size/);
  });
  it('closes with the results from the counts: the message shows them without mentions, the record keeps votes null', async () => {
    const closed = ok(
      await service.call('POST', `/modules/polls/entry/${poll.poll_id}/close`, { body: { guild_id: where.guild, application_id: null, token: null } }),
    ).poll as PollRecord;
    expect(closed.status).toBe('closed');
    expect(counts(closed)).toEqual([1666, 1668, 1667]);
    expect(closed.answers.map((a) => a.votes)).toEqual([null, null, null]);
    const text = await shownText(service, poll);
    expect(text).toContain('final results');
    expect(text).toContain('1668 votes');
    expect(text).not.toContain('<@');
  });
});

describe('polls of a few voters, anonymous polls, and polls stored before counts', () => {
  it('lists the voters of a small poll in its record and on the voters route, one answer ID per vote', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, { is_multi_select: true, max_votes_per_answer: 2 });
    const [a, b] = [snowflake(), snowflake()];
    const vote = (member: string, answer_id: number) => castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id }));
    for (const [member, answer] of [
      [a, 1],
      [a, 1],
      [a, 2],
      [b, 2],
    ] as const)
      ok(await vote(member, answer));

    const got = ok(await getPoll(service, where.guild, poll.poll_id)).poll as PollRecord;
    expect(got.answers.map((x) => [x.vote_count, x.votes])).toEqual([
      [2, [a, a]],
      [2, [a, b].sort()],
      [0, []],
    ]);
    const page = ok(await votersOf(where.guild, poll.poll_id));
    expect(page).toEqual({
      voters: [
        { user_id: a, answer_ids: [1, 1, 2] },
        { user_id: b, answer_ids: [2] },
      ].sort((x, y) => (x.user_id < y.user_id ? -1 : 1)),
      page: 1,
      page_size: 10,
      total: 2,
      next_cursor: null,
    });
    expect(ok(await votersOf(where.guild, poll.poll_id, { answer_id: 1 }))).toMatchObject({ voters: [{ user_id: a, answer_ids: [1, 1] }], total: 1 });
    expect(ok(await votersOf(where.guild, poll.poll_id, { answer_id: 3 }))).toMatchObject({ voters: [], total: 0, next_cursor: null });
  });

  it('refuses the voters of an anonymous poll with 422, while its record shows counts and no voters', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, { is_anonymous: true });
    ok(await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 2 })));
    expect(failed(await votersOf(where.guild, poll.poll_id), 422, 'Unprocessable Entity')).toMatch(/anonymous/);
    const got = ok(await getPoll(service, where.guild, poll.poll_id)).poll as PollRecord;
    expect(got.answers.map((x) => [x.vote_count, x.votes])).toEqual([
      [0, []],
      [1, []],
      [0, []],
    ]);
  });

  it('refuses a vote whose poll closed after it was read: neither the voter item nor the counts change', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where);
    const member = snowflake();
    ok(await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 1 })));
    const voter = await getVoter(where.guild, poll.poll_id, member);
    ok(await service.call('POST', `/modules/polls/entry/${poll.poll_id}/close`, { body: { guild_id: where.guild, application_id: null, token: null } }));
    // The write a vote read before the close would make.
    expect(await writeVoter(where.guild, poll.poll_id, member, voter, { '2': 1 }, true)).toBe('refused');
    expect((await getVoter(where.guild, poll.poll_id, member))?.votes).toEqual({ '1': 1 });
    const got = ok(await getPoll(service, where.guild, poll.poll_id)).poll as PollRecord;
    expect(got.answers.map((x) => [x.vote_count, x.votes])).toEqual([
      [1, [member]],
      [0, []],
      [0, []],
    ]);
  });

  it('counts a poll stored before counts were kept once, then keeps its counts exact', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where);
    const members = await seedVoters(where.guild, poll.poll_id, 300, false);
    const got = ok(await getPoll(service, where.guild, poll.poll_id)).poll as PollRecord;
    expect(got.answers.map((x) => [x.vote_count, x.votes])).toEqual([
      [100, null],
      [100, null],
      [100, null],
    ]);
    // members[1] voted for answer 2.
    ok(await castVote(service, members[1]!, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 2, action: 'remove' })));
    expect(counts(ok(await getPoll(service, where.guild, poll.poll_id)).poll)).toEqual([100, 99, 100]);
    expect(ok(await votersOf(where.guild, poll.poll_id, { answer_id: 2 })).total).toBe(99);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { type PollRecord, answer, castVote, createPoll, eventually, getPoll, messageOf, pollGuild, shownText, voteBody } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const counts = (poll: PollRecord) => poll.answers.map((a) => a.vote_count);
/** The counts of a poll as stored now. */
const countsOf = async (guild: string, pollId: string) => counts((await getPoll(service, guild, pollId)).body.data.poll);

describe('voting', () => {
  it('counts a vote by poll and answer ID, moves it on a single-select poll, and removes it', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where);
    const member = snowflake();
    const vote = (extra: Record<string, unknown>) => castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, ...extra }));

    const first = await vote({ answer_id: 1 });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ vote: { poll_id: poll.poll_id, member_id: member, action: 'add', answer_id: 1, votes: [1] } });
    const stored = (await getPoll(service, where.guild, poll.poll_id)).body.data.poll as PollRecord;
    expect(counts(stored)).toEqual([1, 0, 0]);
    expect(stored.answers[0]!.votes).toEqual([member]);

    const moved = await vote({ answer_id: 3 });
    expect(moved.body.data.vote.votes).toEqual([3]);
    expect(await countsOf(where.guild, poll.poll_id)).toEqual([0, 0, 1]);

    const again = await vote({ answer_id: 3 });
    expect(again.status).toBe(422);
    expect(errorOf(again).message).toMatch(/already gave answer 3/);

    const removed = await vote({ answer_id: 3, action: 'remove' });
    expect(removed.body.data.vote).toMatchObject({ action: 'remove', answer_id: 3, votes: [] });
    expect(await countsOf(where.guild, poll.poll_id)).toEqual([0, 0, 0]);
    const nothing = await vote({ answer_id: 3, action: 'remove' });
    expect(nothing.status).toBe(422);
  });

  it('keeps several answers on a multi-select poll and caps one member per answer at max_votes_per_answer', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, { is_multi_select: true, max_votes_per_answer: 2 });
    const member = snowflake();
    const vote = (answer_id: number, action = 'add') =>
      castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id, action }));
    await vote(1);
    await vote(2);
    const twice = await vote(1);
    expect(twice.body.data.vote.votes).toEqual([1, 1, 2]);
    const stored = (await getPoll(service, where.guild, poll.poll_id)).body.data.poll as PollRecord;
    expect(counts(stored)).toEqual([2, 1, 0]);
    expect(stored.answers[0]!.votes).toEqual([member, member]);
    expect((await vote(1)).status).toBe(422);
    expect((await vote(1, 'remove')).body.data.vote.votes).toEqual([1, 2]);
    expect(await countsOf(where.guild, poll.poll_id)).toEqual([1, 1, 0]);
  });

  it('finds the poll by its message and the answer by emoji, and removes the reaction of an answer left behind', async () => {
    const where = await pollGuild(service);
    const sandbox = sandboxOf(service);
    const poll = await createPoll(service, where, {
      poll_answer_type: 1,
      answers: [
        answer('Yes', { emoji_name: '👍' }),
        answer('No', { emoji_name: '👎' }),
        answer('Blob', { emoji_name: 'blob', emoji_id: '223456789012345678' }),
      ],
    });
    const member = snowflake();
    const byReaction = (emoji: Record<string, unknown>) =>
      castVote(service, member, voteBody(where.guild, where.channel, { interacted_message_id: poll.message_id, ...emoji }));
    await sandbox.react(where.channel, poll.message_id!, '👍', member);
    expect((await byReaction({ emoji_name: '👍' })).body.data.vote.votes).toEqual([1]);
    await sandbox.react(where.channel, poll.message_id!, '👎', member);
    expect((await byReaction({ emoji_name: '👎' })).body.data.vote.votes).toEqual([2]);
    expect(await countsOf(where.guild, poll.poll_id)).toEqual([0, 1, 0]);
    // Single-select: the member's reaction on the answer they left is taken away.
    expect(await sandbox.reactors(where.channel, poll.message_id!, '👍')).toEqual(['1000000000000000001']);
    expect((await byReaction({ emoji_name: 'blob', emoji_id: '223456789012345678' })).body.data.vote.votes).toEqual([3]);
    expect(await countsOf(where.guild, poll.poll_id)).toEqual([0, 0, 1]);
    const unknown = await byReaction({ emoji_name: '🎉' });
    expect(unknown.status).toBe(422);
    expect(errorOf(unknown).message).toMatch(/no answer with emoji/);
    const noPoll = await castVote(service, member, voteBody(where.guild, where.channel, { interacted_message_id: snowflake(), emoji_name: '👍' }));
    expect(noPoll.status).toBe(404);
  });

  it('takes button and dropdown votes by message and answer ID, and native poll votes', async () => {
    const where = await pollGuild(service);
    const dropdown = await createPoll(service, where, { poll_answer_type: 3 });
    const member = snowflake();
    const res = await castVote(service, member, voteBody(where.guild, where.channel, { interacted_message_id: dropdown.message_id, answer_id: 2 }));
    expect(res.body.data.vote.poll_id).toBe(dropdown.poll_id);
    expect(await countsOf(where.guild, dropdown.poll_id)).toEqual([0, 1, 0]);
    const native = await createPoll(service, where, { poll_type: 1, poll_duration: '1h' });
    const nativeVote = await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: native.poll_id, answer_id: 1 }));
    expect(nativeVote.status).toBe(200);
    expect(await countsOf(where.guild, native.poll_id)).toEqual([1, 0, 0]);
  });

  it('hides voters of anonymous polls but shows their counts', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, { is_anonymous: true });
    await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 2 }));
    expect((await getPoll(service, where.guild, poll.poll_id)).body.data.poll.answers[1]).toMatchObject({ vote_count: 1, votes: [] });
  });

  it('needs the acting member (400), refuses bad shapes and rules, and answers 409 while disabled', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where);
    const body = voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 1 });
    const noActor = await service.call('POST', '/modules/polls/entry/vote', { looseBody: body });
    expect(noActor.status).toBe(400);
    expect(errorOf(noActor).message).toMatch(/X-Acting-User-Id/);
    expect((await castVote(service, snowflake(), { ...body, action: 'toggle' })).status).toBe(422);
    expect((await castVote(service, snowflake(), { ...body, answer_id: '1' })).status).toBe(400);
    expect((await castVote(service, snowflake(), { ...body, answer_id: 9 })).status).toBe(422);
    expect((await castVote(service, snowflake(), { ...body, poll_id: null })).status).toBe(422);
    expect((await castVote(service, snowflake(), { ...body, answer_id: null })).status).toBe(422);
    expect((await castVote(service, snowflake(), { ...body, poll_id: 'missing' })).status).toBe(404);
    const key = (await service.call('POST', '/auth/api-key', { body: { guild_id: where.guild } })).body.data.api_key.secret as string;
    const internal = await service.call('POST', '/modules/polls/entry/vote', { token: key, looseBody: body, headers: { 'x-acting-user-id': snowflake() } });
    expect(internal.status).toBe(403);
    await service.call('POST', '/modules/polls/disable', { body: { guild_id: where.guild } });
    const disabled = await castVote(service, snowflake(), body);
    expect(disabled.status).toBe(409);
    expect(errorOf(disabled).name).toBe('ModuleDisabledError');
  });

  it('tells the member about the vote through the interaction webhook', async () => {
    const where = await pollGuild(service);
    const sandbox = sandboxOf(service);
    const poll = await createPoll(service, where);
    const app = snowflake();
    const member = snowflake();
    await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 1, application_id: app, token: 't1' }));
    await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 2, application_id: app, token: 't2' }));
    await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 2, application_id: app, token: 't3' }));
    expect((await sandbox.webhook(app, 't1'))[0]!.content).toBe('Your vote for **Park** was counted.');
    expect((await sandbox.webhook(app, 't2'))[0]!.content).toBe('Your vote moved from **Park** to **Cafe**.');
    expect((await sandbox.webhook(app, 't3'))[0]!.content).toMatch(/^Your vote was not counted\. Unprocessable Entity! The member already gave answer 2/);
  });
});

describe('concurrency', () => {
  it('counts every one of 100 members voting at once', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, { poll_answer_type: 3 });
    const members = Array.from({ length: 100 }, () => snowflake());
    const results = await Promise.all(
      members.map((member, i) => castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: (i % 3) + 1 }))),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    const stored = (await getPoll(service, where.guild, poll.poll_id)).body.data.poll as PollRecord;
    expect(counts(stored)).toEqual([34, 33, 33]);
    expect(stored.answers.flatMap((a) => a.votes).sort()).toEqual([...members].sort());
  });

  it('ends with exactly one vote when one member sends a dozen votes at once to a single-select poll', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where);
    const member = snowflake();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: (i % 3) + 1 }))),
    );
    expect(results.every((r) => r.status === 200 || r.status === 422)).toBe(true);
    const stored = (await getPoll(service, where.guild, poll.poll_id)).body.data.poll as PollRecord;
    expect(stored.answers.reduce((sum, a) => sum + a.vote_count, 0)).toBe(1);
    expect(stored.answers.flatMap((a) => a.votes)).toEqual([member]);
  });

  it('never doubles one member at the cap under concurrent votes for the same answer', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, { is_multi_select: true, max_votes_per_answer: 3 });
    const member = snowflake();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 1 }))),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 422)).toHaveLength(7);
    expect(await countsOf(where.guild, poll.poll_id)).toEqual([3, 0, 0]);
  });
});

describe('the poll message follows the votes', () => {
  it('shows the new counts within seconds, with far fewer edits than votes, and the last state wins', async () => {
    const where = await pollGuild(service);
    const sandbox = sandboxOf(service);
    const poll = await createPoll(service, where);
    const members = Array.from({ length: 30 }, () => snowflake());
    const editsOf = async () => (await sandbox.requests()).filter((r) => r.method === 'PATCH' && r.path.endsWith(`/messages/${poll.message_id}`)).length;
    const editsBefore = await editsOf();
    for (const [i, member] of members.entries()) {
      await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: i < 20 ? 1 : 2 }));
    }
    // Park reaches 20 before the Cafe votes are cast, so only both counts together are the burst's last state.
    const lastState = (text: string) => text.includes('**Park**\n▓▓▓▓▓▓▓░░░ 20 votes') && text.includes('**Cafe**\n▓▓▓░░░░░░░ 10 votes');
    await eventually(async () => lastState(await shownText(service, poll)), 15_000, 'the counts on the message');
    const edits = (await editsOf()) - editsBefore;
    expect(edits).toBeGreaterThanOrEqual(1);
    expect(edits).toBeLessThan(members.length / 2);
    // A change after the burst still reaches the message.
    await castVote(service, members[0]!, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 1, action: 'remove' }));
    await eventually(async () => (await shownText(service, poll)).includes('19 votes'), 15_000, 'the last vote on the message');
  }, 60000);

  it('shows votes made while a slow render runs: the first asks for another render, the next ride along', async () => {
    const where = await pollGuild(service);
    const sandbox = sandboxOf(service);
    const poll = await createPoll(service, where);
    // The next edit of the message hangs 3 s and fails, and its retry succeeds: the render holds its claim meanwhile.
    await sandbox.fault({ method: 'PATCH', path: `/messages/${poll.message_id}$`, status: 500, delay_ms: 3000 });
    await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 1 }));
    // The render of that vote starts about 2 s later (the refresh delay, in whole seconds of queue delay) and hangs until about 5 s.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    for (const member of [snowflake(), snowflake(), snowflake()]) {
      await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 2 }));
    }
    await eventually(async () => /\*\*Cafe\*\*\n\S+ 3 votes/.test(await shownText(service, poll)), 15_000, 'the votes made during the render');
    expect(await shownText(service, poll)).toMatch(/\*\*Park\*\*\n\S+ 1 vote\b/);
  }, 60000);

  it('ends a burst of 50 members voting at once with the exact final counts on the message', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: i < 25 ? 1 : i < 40 ? 2 : 3 })),
      ),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    expect(await countsOf(where.guild, poll.poll_id)).toEqual([25, 15, 10]);
    const shown = await eventually(
      async () => {
        const message = await messageOf(service, poll);
        return message?.embeds[0]?.footer?.text?.startsWith('50 votes') ? message : undefined;
      },
      30_000,
      'all 50 votes on the message',
    );
    const text = shown.embeds[0]?.description ?? '';
    expect(text).toContain('**Park**\n▓▓▓▓▓░░░░░ 25 votes · 50%');
    expect(text).toContain('**Cafe**\n▓▓▓░░░░░░░ 15 votes · 30%');
    expect(text).toContain('**Library**\n▓▓░░░░░░░░ 10 votes · 20%');
  }, 60000);

  it('shows a burst that lands while a refresh is rendering once that refresh is over', async () => {
    const where = await pollGuild(service);
    const sandbox = sandboxOf(service);
    const poll = await createPoll(service, where);
    // The first edit hangs 3 s (then fails, and its retry goes through): the render holds the message all that time.
    await sandbox.fault({ method: 'PATCH', path: `/messages/${poll.message_id}$`, status: 500, delay_ms: 3000 });
    await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 1 }));
    // That vote's render starts about 2 s later and hangs until about 5 s: the burst lands during it.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: i < 30 ? 2 : 3 })),
      ),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    await eventually(async () => (await messageOf(service, poll))?.embeds[0]?.footer?.text?.startsWith('51 votes'), 30_000, 'the burst on the message');
    const text = await shownText(service, poll);
    expect(text).toMatch(/\*\*Park\*\*\n\S+ 1 vote\b/);
    expect(text).toMatch(/\*\*Cafe\*\*\n\S+ 30 votes/);
    expect(text).toMatch(/\*\*Library\*\*\n\S+ 20 votes/);
  }, 60000);

  it('catches up after the platform failed a refresh', async () => {
    const where = await pollGuild(service);
    const sandbox = sandboxOf(service);
    const poll = await createPoll(service, where);
    await sandbox.fault({ method: 'PATCH', path: `/messages/${poll.message_id}$`, status: 500, times: 3 });
    await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 3 }));
    await eventually(async () => (await shownText(service, poll)).includes('**Library**\n▓▓▓▓▓▓▓▓▓▓ 1 vote'), 20_000, 'the retried refresh');
  }, 60000);
});

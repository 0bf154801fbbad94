import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { voterSweep } from '#functions/polls/lifecycle.js';
import { VoterEntity, dueKeyOf, votersPartition } from '#functions/polls/keys.js';
import { countAll } from '#test/helpers/table.js';
import { ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { type PollRecord, answer, castVote, createPoll, getPoll, pollGuild, voteBody } from './helpers.js';
import { seedVoters } from './seed.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());
afterEach(() => {
  delete process.env.POLLS_SWEEP_PAGES;
});

/** How many voter items the poll's partition holds. */
async function storedVoters(guild: string, pollId: string): Promise<number> {
  return countAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': votersPartition(guild, pollId), ':p': VoterEntity.prefix },
    ConsistentRead: true,
  });
}

/** Waits until the removal of the poll's voters is over. */
async function removalEnds(guild: string, pollId: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (await voterSweep.get(dueKeyOf(guild, pollId))) {
    if (Date.now() > until) throw new Error(`the voters of poll ${pollId} were not removed within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const registerBody = (where: { guild: string; channel: string; owner: string }, pollId: string) => ({
  guild_id: where.guild,
  poll_id: pollId,
  channel_id: where.channel,
  poll_type: 2,
  message_id: null,
  edited_with_results: false,
  poll_answer_type: 2,
  question: 'Registered?',
  description: null,
  end_time: Math.floor(Date.now() / 1000) + 3600,
  delete_at: null,
  language: 'en',
  auto_delete: 0,
  answers: [answer('Yes'), answer('No')],
  is_multi_select: false,
  is_anonymous: false,
  max_votes_per_answer: 1,
  sent_by_service: false,
  poll_owner_id: where.owner,
});

describe('deleting a poll with thousands of voters', { timeout: 90_000 }, () => {
  it('answers at once, reads as gone, removes the voters over several runs and keeps votes on other polls', async () => {
    process.env.POLLS_SWEEP_PAGES = '1';
    const where = await pollGuild(service);
    const pollId = `p-${snowflake()}`;
    ok(await service.call('POST', '/modules/polls/handler/create', { looseBody: registerBody(where, pollId) }));
    await seedVoters(where.guild, pollId, 5000);
    const other = await createPoll(service, where);

    const deleted = ok(await service.call('DELETE', '/modules/polls/handler/delete', { body: { guild_id: where.guild, poll_id: pollId } }));
    expect(deleted.poll.poll_id).toBe(pollId);
    // Answered before the voters are gone; the poll is gone to every read at once.
    expect(await storedVoters(where.guild, pollId)).toBeGreaterThan(1000);
    expect((await getPoll(service, where.guild, pollId)).status).toBe(404);
    expect((await service.call('GET', `/modules/polls/entry/${pollId}/voters`, { query: { guild_id: where.guild } })).status).toBe(404);
    // Its ID is not free while its old voters are still there: they would count as the new poll's.
    const again = await service.call('POST', '/modules/polls/handler/create', { looseBody: registerBody(where, pollId) });
    expect(again.status).toBe(422);
    expect(again.text).toContain('still being removed');
    // A vote on another poll of the guild, made while the removal runs.
    const member = snowflake();
    ok(await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: other.poll_id, answer_id: 2 })));

    await removalEnds(where.guild, pollId);
    expect(await storedVoters(where.guild, pollId)).toBe(0);
    expect(await storedVoters(where.guild, other.poll_id)).toBe(1);
    const kept = ok(await getPoll(service, where.guild, other.poll_id)).poll as PollRecord;
    expect(kept.answers.map((a) => a.vote_count)).toEqual([0, 1, 0]);
    // Once they are gone, the ID is free again, and the new poll has no voters.
    const registered = ok(await service.call('POST', '/modules/polls/handler/create', { looseBody: registerBody(where, pollId) }));
    expect(registered.poll.answers.map((a: { vote_count: number }) => a.vote_count)).toEqual([0, 0]);
  });

  it('removes the voters of every poll behind a settings delete, which answers at once', async () => {
    process.env.POLLS_SWEEP_PAGES = '1';
    const where = await pollGuild(service);
    const a = await createPoll(service, where);
    const b = await createPoll(service, where, { question: 'Second?' });
    await Promise.all([seedVoters(where.guild, a.poll_id, 2500), seedVoters(where.guild, b.poll_id, 2500)]);

    const removed = ok(await service.call('DELETE', '/modules/polls/settings/delete', { body: { guild_id: where.guild } }));
    expect(removed.polls.map((p: PollRecord) => p.poll_id)).toEqual([b.poll_id, a.poll_id]);
    expect(removed.polls_total).toBe(2);
    expect((await storedVoters(where.guild, a.poll_id)) + (await storedVoters(where.guild, b.poll_id))).toBeGreaterThan(1000);

    // The module again, a new poll and a vote on it while the old voters are removed.
    ok(await service.call('POST', '/modules/polls/enable', { body: { guild_id: where.guild } }));
    expect(ok(await service.call('GET', '/modules/polls/entries', { query: { guild_id: where.guild } })).total).toBe(0);
    const fresh = await createPoll(service, where);
    ok(await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: fresh.poll_id, answer_id: 1 })));

    await Promise.all([removalEnds(where.guild, a.poll_id), removalEnds(where.guild, b.poll_id)]);
    expect(await storedVoters(where.guild, a.poll_id)).toBe(0);
    expect(await storedVoters(where.guild, b.poll_id)).toBe(0);
    expect(await storedVoters(where.guild, fresh.poll_id)).toBe(1);
  });
});

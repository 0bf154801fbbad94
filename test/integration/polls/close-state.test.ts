/**
 * A poll never shows a half-finished close (CONTRACT 16, behaviour §15
 * "What a read can show"): while its results are being put on its message
 * it reads `open` and takes no votes; then one write makes it `closed` with
 * `edited_with_results` and `delete_at`. The results edit is held up (and
 * then refused) by the sandbox platform, so a read lands in the middle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDuePoll } from '#functions/polls/lifecycle.js';
import { getPoll as storedPoll } from '#functions/polls/store.js';
import { errorOf, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { castVote, createPoll, eventually, getPoll, type PollRecord, pollGuild, voteBody } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

/** How long the platform holds the results edit before refusing it: room for a read and a vote, inside the platform client's 5 s timeout (a timed-out call is sent again). */
const HELD_MS = 4000;

const read = async (guild: string, pollId: string): Promise<PollRecord> => {
  const res = await getPoll(service, guild, pollId);
  expect(res.status, res.text).toBe(200);
  return res.body.data.poll;
};
const closeByRequest = (guild: string, pollId: string) =>
  service.call('POST', `/modules/polls/entry/${pollId}/close`, { body: { guild_id: guild, application_id: null, token: null } });

/** A poll with one vote, its message already showing it (so no refresh of the vote is left to meet the close's edit). */
async function votedPoll() {
  const where = await pollGuild(service);
  const poll = await createPoll(service, where);
  expect((await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 1 }))).status).toBe(200);
  await eventually(async () => {
    const stored = await storedPoll(where.guild, poll.poll_id);
    return stored && stored.vote_seq === 1 && stored.rendered_seq === 1;
  });
  return { where, poll };
}

/** The close has begun: entries to the poll stopped (a close under way, or, before, the close itself). */
const closeBegun = (guild: string, pollId: string) =>
  eventually(async () => {
    const stored = await storedPoll(guild, pollId);
    return stored && ((stored.closing_at ?? 0) > 0 || stored.status === 'closed');
  });

describe('a poll never shows a half-finished close', () => {
  it('reads open while the timer puts the results on the message, refuses votes meanwhile, then closed with all of it', async () => {
    const { where, poll } = await votedPoll();
    await sandboxOf(service).fault({ method: 'PATCH', path: `/messages/${poll.message_id}$`, status: 403, delay_ms: HELD_MS, times: 1 });
    const closing = closeDuePoll(where.guild, poll.poll_id).then(
      () => null,
      (error: unknown) => error,
    );
    await closeBegun(where.guild, poll.poll_id);

    expect(await read(where.guild, poll.poll_id)).toMatchObject({ status: 'open', edited_with_results: false, delete_at: null });
    const late = await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 2 }));
    expect(late.status).toBe(422);
    expect(errorOf(late).message).toContain('is closed; it takes no more votes');

    // The platform refused the results: the timer's run fails (and is retried); the poll still reads open.
    expect(await closing).toBeInstanceOf(Error);
    expect(await read(where.guild, poll.poll_id)).toMatchObject({ status: 'open', edited_with_results: false, delete_at: null });

    await closeDuePoll(where.guild, poll.poll_id);
    const closed = await read(where.guild, poll.poll_id);
    expect(closed).toMatchObject({ status: 'closed', edited_with_results: true });
    expect(Date.parse(closed.delete_at!) - Date.now()).toBeGreaterThan(604_000_000);
    expect(closed.answers.map((a) => a.vote_count)).toEqual([1, 0, 0]);
  });

  it('reads open while a close by request is under way, and open again when the platform refuses it', async () => {
    const { where, poll } = await votedPoll();
    await sandboxOf(service).fault({ method: 'PATCH', path: `/messages/${poll.message_id}$`, status: 403, delay_ms: HELD_MS, times: 1 });
    const answer = closeByRequest(where.guild, poll.poll_id);
    await closeBegun(where.guild, poll.poll_id);
    expect(await read(where.guild, poll.poll_id)).toMatchObject({ status: 'open', edited_with_results: false, delete_at: null });
    expect((await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 2 }))).status).toBe(422);

    expect((await answer).status).toBe(502);
    // Undone: open, taking votes again.
    expect(await read(where.guild, poll.poll_id)).toMatchObject({ status: 'open', edited_with_results: false, delete_at: null });
    expect((await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 2 }))).status).toBe(200);

    const retry = await closeByRequest(where.guild, poll.poll_id);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.data.poll).toMatchObject({ status: 'closed', edited_with_results: true });
    expect(await read(where.guild, poll.poll_id)).toMatchObject({ status: 'closed', edited_with_results: true, delete_at: expect.any(String) });
  });
});

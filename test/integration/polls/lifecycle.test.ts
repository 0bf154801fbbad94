import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '#test/helpers/sandbox.js';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { type PollRecord, answer, castVote, createPoll, eventually, getPoll, messageOf, pollGuild, voteBody } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

async function settle(guild: string, settings: { save_duration_timeout: number; delete_ended_platform_polls?: boolean; delete_ended_service_polls?: boolean }) {
  const res = await service.call('PUT', '/modules/polls/settings', {
    body: { guild_id: guild, delete_ended_platform_polls: false, delete_ended_service_polls: false, ...settings },
  });
  expect(res.status).toBe(200);
}

const pollOf = async (guild: string, pollId: string) => (await getPoll(service, guild, pollId)).body.data?.poll as PollRecord | undefined;

/** The bot posts a message itself (as it would for a poll it registers through handler/create). */
async function botMessage(channel: string, body: Record<string, unknown>): Promise<Message> {
  const res = await fetch(`${service.sandboxUrl}/channels/${channel}/messages`, {
    method: 'POST',
    headers: { authorization: 'Bot test', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Message;
}

const botNativePoll = (channel: string) =>
  botMessage(channel, { poll: { question: { text: 'Native?' }, answers: [{ poll_media: { text: 'A' } }, { poll_media: { text: 'B' } }], duration: 1 } });

const registerBody = (where: { guild: string; channel: string; owner: string }, extra: Record<string, unknown> = {}) => ({
  guild_id: where.guild,
  poll_id: `p-${snowflake()}`,
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
  sent_by_service: true,
  poll_owner_id: where.owner,
  ...extra,
});

describe('polls end by themselves', () => {
  it('closes a short poll on time with its results, then deletes its data and message at delete_at', async () => {
    const where = await pollGuild(service);
    await settle(where.guild, { save_duration_timeout: 2, delete_ended_service_polls: true });
    const poll = await createPoll(service, where, { poll_duration: '3s' });
    const voter = snowflake();
    await castVote(service, voter, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 1 }));

    const closed = await eventually(
      async () => {
        const now = await pollOf(where.guild, poll.poll_id);
        return now?.status === 'closed' && now.edited_with_results ? now : undefined;
      },
      20_000,
      'the poll to close by itself',
    );
    expect(Date.parse(closed.delete_at!) - Date.parse(closed.end_time)).toBeGreaterThanOrEqual(2000);
    const message = (await messageOf(service, poll))!;
    expect(message.embeds[0]!.description).toContain(`<@${voter}>`);
    expect(message.components!.flatMap((r) => r.components).every((c) => c.disabled)).toBe(true);

    await eventually(async () => (await getPoll(service, where.guild, poll.poll_id)).status === 404, 20_000, 'the poll data to be deleted');
    expect(await messageOf(service, poll)).toBeNull();
    const edits = (await sandboxOf(service).requests()).filter((r) => r.method === 'PATCH' && r.path.endsWith(`/messages/${poll.message_id}`));
    // One results edit, however many times the due work was looked at (the vote's refresh may add one before it).
    expect(edits.length).toBeLessThanOrEqual(2);
  }, 60000);

  it('keeps the message of a deleted poll when the settings say so', async () => {
    const where = await pollGuild(service);
    await settle(where.guild, { save_duration_timeout: 1 });
    const poll = await createPoll(service, where, { poll_duration: '2s' });
    await eventually(async () => (await getPoll(service, where.guild, poll.poll_id)).status === 404, 25_000, 'the poll data to be deleted');
    const message = await messageOf(service, poll);
    expect(message?.embeds[0]?.description).toContain('final results');
  }, 60000);

  it('ends a native poll the bot sent through the platform at its end time, and deletes it when asked', async () => {
    const where = await pollGuild(service);
    await settle(where.guild, { save_duration_timeout: 1, delete_ended_platform_polls: true });
    const native = await botNativePoll(where.channel);
    const res = await service.call('POST', '/modules/polls/handler/create', {
      looseBody: registerBody(where, {
        poll_type: 1,
        poll_answer_type: null,
        message_id: native.id,
        end_time: Math.floor(Date.now() / 1000) + 2,
        answers: [answer('A'), answer('B')],
      }),
    });
    expect(res.status).toBe(200);
    const poll = res.body.data.poll as PollRecord;
    await eventually(async () => (await messageOf(service, poll))?.poll?.results?.is_finalized, 20_000, 'the native poll to end');
    await eventually(async () => (await messageOf(service, poll)) === null, 20_000, 'the native poll message to be deleted');
    // The message goes first, then the poll's records: wait for those too rather than race them.
    await eventually(async () => (await getPoll(service, where.guild, poll.poll_id)).status === 404, 5_000, 'the poll data to be deleted');
  }, 60000);

  it('runs timers while the module is disabled (the data still ends on time)', async () => {
    const where = await pollGuild(service);
    await settle(where.guild, { save_duration_timeout: 1 });
    const poll = await createPoll(service, where, { poll_duration: '2s' });
    await service.call('POST', '/modules/polls/disable', { body: { guild_id: where.guild } });
    await eventually(async () => (await messageOf(service, poll))?.embeds[0]?.description?.includes('final results'), 20_000, 'the results');
    await service.call('POST', '/modules/polls/enable', { body: { guild_id: where.guild } });
    await eventually(async () => (await getPoll(service, where.guild, poll.poll_id)).status === 404, 20_000, 'the deletion');
  }, 60000);
});

describe('the handler interface', () => {
  it('registers, edits, votes on, closes and deletes a poll directly', async () => {
    const where = await pollGuild(service);
    const posted = await botMessage(where.channel, { content: 'poll placeholder' });
    const body = registerBody(where, { message_id: posted.id });
    const created = await service.call('POST', '/modules/polls/handler/create', { looseBody: body });
    expect(created.status).toBe(200);
    const poll = created.body.data.poll as PollRecord;
    expect(poll).toMatchObject({ poll_id: body.poll_id, status: 'open', edited_with_results: false, sent_by_service: true, delete_at: null });
    expect(Date.parse(poll.end_time)).toBe(body.end_time * 1000);
    expect(poll).not.toHaveProperty('language');

    const dup = await service.call('POST', '/modules/polls/handler/create', { looseBody: body });
    expect(dup.status).toBe(422);
    expect((await service.call('POST', '/modules/polls/handler/create', { looseBody: { ...body, poll_id: 'bad id!' } })).status).toBe(422);

    const edited = await service.call('POST', '/modules/polls/handler/edit', {
      body: {
        guild_id: where.guild,
        poll_id: poll.poll_id,
        question: 'Changed?',
        description: 'now',
        max_votes_per_answer: 1,
        is_multi_select: true,
        is_anonymous: false,
      },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.poll).toMatchObject({ question: 'Changed?', description: 'now', is_multi_select: true });
    expect((await messageOf(service, poll))!.embeds[0]!.title).toBe('Changed?');

    const voteBody = { guild_id: where.guild, poll_id: poll.poll_id, action: 'add', answer_id: 2 };
    expect((await service.call('POST', '/modules/polls/handler/vote', { looseBody: voteBody })).status).toBe(400);
    const voted = await service.call('POST', '/modules/polls/handler/vote', { looseBody: voteBody, headers: { 'x-acting-user-id': where.owner } });
    expect(voted.body.data.vote).toEqual({ poll_id: poll.poll_id, member_id: where.owner, action: 'add', answer_id: 2, votes: [2] });
    expect((await pollOf(where.guild, poll.poll_id))!.answers[1]!.vote_count).toBe(1);

    const reworded = await service.call('POST', '/modules/polls/handler/edit', {
      body: {
        guild_id: where.guild,
        poll_id: poll.poll_id,
        question: 'Changed again?',
        description: 'now',
        max_votes_per_answer: 1,
        is_multi_select: true,
        is_anonymous: false,
      },
    });
    expect(reworded.body.data.poll).toMatchObject({ question: 'Changed again?', answers: [{ vote_count: 0 }, { vote_count: 1, votes: [where.owner] }] });

    const closed = await service.call('POST', '/modules/polls/handler/close', { body: { guild_id: where.guild, poll_id: poll.poll_id } });
    expect(closed.body.data.poll).toMatchObject({
      status: 'closed',
      edited_with_results: true,
      answers: [{ vote_count: 0 }, { vote_count: 1, votes: [where.owner] }],
    });
    expect((await service.call('POST', '/modules/polls/handler/close', { body: { guild_id: where.guild, poll_id: poll.poll_id } })).status).toBe(422);

    const deleted = await service.call('DELETE', '/modules/polls/handler/delete', { body: { guild_id: where.guild, poll_id: poll.poll_id } });
    expect(deleted.status).toBe(200);
    expect((await getPoll(service, where.guild, poll.poll_id)).status).toBe(404);
    expect((await service.call('DELETE', '/modules/polls/handler/delete', { body: { guild_id: where.guild, poll_id: poll.poll_id } })).status).toBe(404);
  });

  it('registers a poll already finished as closed, with delete_at from the settings', async () => {
    const where = await pollGuild(service);
    await settle(where.guild, { save_duration_timeout: 3600 });
    const res = await service.call('POST', '/modules/polls/handler/create', {
      looseBody: registerBody(where, { edited_with_results: true, end_time: Math.floor(Date.now() / 1000) - 60 }),
    });
    expect(res.body.data.poll).toMatchObject({ status: 'closed', edited_with_results: true });
    expect(Date.parse(res.body.data.poll.delete_at)).toBeGreaterThan(Date.now() + 3500_000);
  });

  it('is internal: a guild key gets 403, and the home needs no credentials', async () => {
    const where = await pollGuild(service);
    const key = (await service.call('POST', '/auth/api-key', { body: { guild_id: where.guild } })).body.data.api_key.secret as string;
    expect((await service.call('POST', '/modules/polls/handler/create', { token: key, looseBody: registerBody(where) })).status).toBe(403);
    const home = await service.call('GET', '/modules/polls/handler', { token: null });
    expect(home.status).toBe(200);
    expect(home.body.data.message).toContain('polls');
  });
});

describe('a deleted message', () => {
  it('drops the poll it carried, and answers null for a message without a poll', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where);
    const body = { guild_id: where.guild, channel_id: where.channel, interacted_message_id: poll.message_id };
    const res = await service.call('DELETE', '/modules/polls/entry/delete-poll-on-message-delete', { body });
    expect(res.status).toBe(200);
    expect(res.body.data.poll.poll_id).toBe(poll.poll_id);
    expect((await getPoll(service, where.guild, poll.poll_id)).status).toBe(404);
    const none = await service.call('DELETE', '/modules/polls/entry/delete-poll-on-message-delete', { body });
    expect(none.body.data).toEqual({ poll: null });
    expect(
      (await service.call('DELETE', '/modules/polls/entry/delete-poll-on-message-delete', { looseBody: { ...body, interacted_message_id: null } })).status,
    ).toBe(400);
  });
});

describe('privacy', () => {
  it('counts a member votes and owned polls, deletes them for good, and the messages follow', async () => {
    const where = await pollGuild(service);
    const member = snowflake();
    const own = await createPoll(service, { ...where, owner: member }, { is_multi_select: true, max_votes_per_answer: 2 });
    const other = await createPoll(service, where);
    await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: own.poll_id, answer_id: 1 }));
    await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: own.poll_id, answer_id: 1 }));
    await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: other.poll_id, answer_id: 2 }));
    await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: other.poll_id, answer_id: 2 }));
    await service.call('POST', `/modules/polls/entry/${other.poll_id}/close`, { body: { guild_id: where.guild, application_id: null, token: null } });
    expect((await messageOf(service, other))!.embeds[0]!.description).toContain(`<@${member}>`);

    const query = { guild_id: where.guild, privacy_member_id: member };
    const counted = await service.call('GET', '/modules/polls/privacy/get-user-entries', { query });
    expect(counted.body.data).toEqual({ username: 0, display_name: 0, global_name: 0, nickname: 0, id: 4 });

    const deleted = await service.call('DELETE', '/modules/polls/privacy/delete-user-entries', { body: query });
    expect(deleted.status).toBe(200);
    expect(typeof deleted.body.data.message).toBe('string');
    expect((await service.call('GET', '/modules/polls/privacy/get-user-entries', { query })).body.data.id).toBe(0);
    const ownAfter = await pollOf(where.guild, own.poll_id);
    expect(ownAfter!.poll_owner_id).toBeNull();
    expect(ownAfter!.answers[0]!.vote_count).toBe(0);
    const otherAfter = await pollOf(where.guild, other.poll_id);
    expect(otherAfter!.answers[1]).toMatchObject({ vote_count: 1 });
    expect(otherAfter!.answers[1]!.votes).not.toContain(member);
    await eventually(
      async () => !(await messageOf(service, other))!.embeds[0]!.description!.includes(`<@${member}>`),
      15_000,
      'the results without the member',
    );
  }, 60000);

  it('works in any module state, and is internal', async () => {
    const guild = snowflake();
    const query = { guild_id: guild, privacy_member_id: snowflake() };
    expect((await service.call('GET', '/modules/polls/privacy/get-user-entries', { query })).body.data.id).toBe(0);
    expect((await service.call('DELETE', '/modules/polls/privacy/delete-user-entries', { body: query })).status).toBe(200);
    const key = (await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).body.data.api_key.secret as string;
    const refused = await service.call('GET', '/modules/polls/privacy/get-user-entries', { token: key, query });
    expect(refused.status).toBe(403);
    expect(errorOf(refused).name).toBe('ForbiddenError');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { PollListEntity } from '#functions/polls/keys.js';
import { deleteKeys, putItems } from '#shared/db/batch.js';
import { queryAll } from '#test/helpers/table.js';
import { guildKey } from '#shared/modules/store.js';
import { POLL_FIELDS, type PollRecord, answer, castVote, createPoll, getPoll, messageOf, pollBody, pollGuild, voteBody } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const create = (body: Record<string, unknown>) => service.call('POST', '/modules/polls/entries', { looseBody: body });

describe('creating polls', () => {
  it('posts a service poll with buttons and answers exactly the poll record', async () => {
    const where = await pollGuild(service);
    const before = Date.now();
    const poll = await createPoll(service, where, { poll_duration: '2h' });
    expect(Object.keys(poll).sort()).toEqual(POLL_FIELDS);
    expect(poll).toMatchObject({
      guild_id: where.guild,
      channel_id: where.channel,
      poll_type: 2,
      poll_answer_type: 2,
      question: 'Where do we meet?',
      description: 'Pick a place',
      is_multi_select: false,
      is_anonymous: false,
      max_votes_per_answer: 1,
      poll_owner_id: where.owner,
      sent_by_service: true,
      status: 'open',
      delete_at: null,
      edited_with_results: false,
    });
    expect(poll.poll_id).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(Number.isSafeInteger(poll.id) && poll.id > 0).toBe(true);
    const end = Date.parse(poll.end_time);
    expect(end - Date.parse(poll.created_at)).toBe(2 * 3600_000);
    expect(end).toBeGreaterThanOrEqual(before + 2 * 3600_000);
    expect(poll.answers).toEqual([
      { answer_id: 1, answer_text: 'Park', label: null, description: null, emoji_name: null, emoji_id: null, vote_count: 0, votes: [] },
      { answer_id: 2, answer_text: 'Cafe', label: null, description: null, emoji_name: null, emoji_id: null, vote_count: 0, votes: [] },
      { answer_id: 3, answer_text: 'Library', label: null, description: null, emoji_name: null, emoji_id: null, vote_count: 0, votes: [] },
    ]);

    const message = await messageOf(service, poll);
    expect(message?.author.bot).toBe(true);
    const embed = message!.embeds[0]!;
    expect(embed.title).toBe('Where do we meet?');
    expect(embed.description).toContain('Pick a place');
    expect(embed.description).toContain('**Park**');
    expect(embed.description).toContain('0 votes');
    expect(embed.description).toContain(`<t:${Math.floor(end / 1000)}:R>`);
    const buttons = message!.components!.flatMap((row) => row.components);
    expect(buttons.map((b) => ('label' in b ? b.label : null))).toEqual(['Park', 'Cafe', 'Library']);
    expect(buttons.every((b) => !b.disabled)).toBe(true);
  });

  it('posts an emoji poll with the service reaction for every answer', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, {
      poll_answer_type: 1,
      answers: [
        answer('Yes', { emoji_name: '👍' }),
        answer('No', { emoji_name: '👎' }),
        answer('Custom', { emoji_name: 'party_blob', emoji_id: '123456789012345678' }),
      ],
    });
    const sandbox = sandboxOf(service);
    const message = await messageOf(service, poll);
    expect(message!.components).toEqual([]);
    expect(message!.reactions?.map((r) => [r.emoji.name, r.me])).toEqual([
      ['👍', true],
      ['👎', true],
      ['party_blob', true],
    ]);
    expect(await sandbox.reactors(poll.channel_id, poll.message_id!, '👍')).toEqual(['1000000000000000001']);
  });

  it('posts a dropdown poll whose options carry answer IDs', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, {
      poll_answer_type: 3,
      answers: [answer('Red', { label: 'Red team', description: 'the reds' }), answer('Blue', { emoji_name: '🔵' })],
    });
    const select = (await messageOf(service, poll))!.components![0]!.components[0]!;
    expect(select).toMatchObject({
      type: 3,
      options: [
        { label: 'Red team', value: '1', description: 'the reds' },
        { label: 'Blue', value: '2', emoji: { name: '🔵' } },
      ],
    });
  });

  it('posts a platform-native poll with the platform limits, ignoring service-only fields', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, {
      poll_type: 1,
      poll_answer_type: null,
      poll_duration: '90m',
      description: 'ignored',
      is_anonymous: true,
      max_votes_per_answer: 7,
      is_multi_select: true,
      answers: [answer('One', { emoji_name: '1️⃣' }), answer('Two')],
    });
    expect(poll).toMatchObject({
      poll_type: 1,
      poll_answer_type: null,
      description: null,
      is_anonymous: false,
      max_votes_per_answer: 1,
      is_multi_select: true,
    });
    const message = await messageOf(service, poll);
    expect(message!.poll).toMatchObject({
      question: { text: 'Where do we meet?' },
      answers: [
        { answer_id: 1, poll_media: { text: 'One', emoji: { name: '1️⃣' } } },
        { answer_id: 2, poll_media: { text: 'Two' } },
      ],
      allow_multiselect: true,
    });
    // 90 minutes: the platform counts whole hours (2); the service ends it itself after 90.
    expect(Date.parse(message!.poll!.expiry!) - Date.parse(message!.timestamp)).toBe(2 * 3600_000);
    expect(Date.parse(poll.end_time) - Date.parse(poll.created_at)).toBe(90 * 60_000);
  });

  it('checks every rule (422) after shape (400), and stores nothing on a refusal', async () => {
    const where = await pollGuild(service);
    const sandbox = sandboxOf(service);
    const rules: [Record<string, unknown>, RegExp][] = [
      [{ message_id: snowflake() }, /message_id' must be null/],
      [{ poll_duration: '10' }, /poll_duration' must be a whole number followed by s, m, h or d/],
      [{ poll_duration: '0s' }, /poll_duration/],
      [{ poll_duration: '1.5h' }, /poll_duration/],
      [{ poll_type: 3 }, /poll_type' must be 1/],
      [{ poll_answer_type: 4 }, /poll_answer_type' must be 1/],
      [{ poll_answer_type: null }, /poll_answer_type/],
      [{ max_votes_per_answer: 0 }, /max_votes_per_answer/],
      [{ answers: [] }, /1 to 25 answers/],
      [{ answers: [answer('A', { votes: [snowflake()] })] }, /votes' must be an empty list/],
      [{ answers: [answer('A')], poll_answer_type: 1 }, /emoji_name' is required/],
      [{ answers: [answer('A', { emoji_name: '👍' }), answer('B', { emoji_name: '👍' })], poll_answer_type: 1 }, /repeats the emoji/],
      [{ answers: [answer('A', { emoji_name: 'not-an-emoji' })] }, /one unicode emoji/],
      [{ question: '' }, /question' must be 1 to 256/],
      [{ question: 'q'.repeat(257) }, /question' must be 1 to 256/],
      [{ application_id: snowflake(), token: null }, /application_id' and 'token' go together/],
      [{ poll_type: 1, poll_duration: '59m' }, /1 hour to 32 days/],
      [{ poll_type: 1, poll_duration: '33d' }, /1 hour to 32 days/],
      [{ poll_type: 1, question: 'q'.repeat(301) }, /1 to 300/],
      [{ poll_type: 1, answers: Array.from({ length: 11 }, (_, i) => answer(`A${i}`)) }, /1 to 10 answers/],
      [{ poll_type: 1, answers: [answer('x'.repeat(56))] }, /1 to 55/],
    ];
    for (const [extra, reason] of rules) {
      const res = await create(pollBody(where, extra));
      expect(res.status, JSON.stringify(extra).slice(0, 80)).toBe(422);
      expect(errorOf(res)).toMatchObject({ code: 422, name: 'Unprocessable Entity' });
      expect(errorOf(res).message).toMatch(/^Unprocessable Entity! /);
      expect(errorOf(res).message).toMatch(reason);
    }
    const shapes: Record<string, unknown>[] = [
      { poll_type: '2' },
      { question: 7 },
      { answers: 'A' },
      { answers: [{ label: 'no text' }] },
      { is_multi_select: 'yes' },
      { channel_id: 'general' },
      { poll_owner_id: undefined },
      { guild_id: '18446744073709551616' },
    ];
    for (const extra of shapes) {
      const body = pollBody(where, extra);
      const res = await create(body);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(errorOf(res).name).toBe('BadRequestError');
    }
    // 400 wins over 422 when both are wrong.
    expect((await create(pollBody(where, { question: 7, poll_duration: 'x' }))).status).toBe(400);
    expect((await service.call('GET', '/modules/polls/entries', { query: { guild_id: where.guild } })).body.data.total).toBe(0);
    const state = await sandbox.state();
    expect(state.channels.find((c) => c.id === where.channel)?.messages ?? []).toEqual([]);
  });

  it('accepts IDs as JSON integers beyond 2^53 and echoes them digit for digit', async () => {
    const where = await pollGuild(service);
    const body = JSON.stringify(pollBody(where))
      .replace(`"poll_owner_id":"${where.owner}"`, `"poll_owner_id":${where.owner}`)
      .replace(`"guild_id":"${where.guild}"`, `"guild_id":${where.guild}`);
    const res = await service.call('POST', '/modules/polls/entries', { rawBody: body });
    expect(res.status).toBe(200);
    expect(res.body.data.poll.poll_owner_id).toBe(where.owner);
    expect(res.body.data.poll.guild_id).toBe(where.guild);
  });

  it('answers 409 while the module is disabled, after the rules', async () => {
    const guild = snowflake();
    const where = { guild, channel: await sandboxOf(service).channelIn(guild), owner: snowflake() };
    const res = await create(pollBody(where));
    expect(res.status).toBe(409);
    expect(errorOf(res).name).toBe('ModuleDisabledError');
    expect((await create(pollBody(where, { poll_duration: 'soon' }))).status).toBe(422);
  });

  it('answers 502 and keeps nothing when the platform refuses the post or a reaction', async () => {
    const where = await pollGuild(service);
    const sandbox = sandboxOf(service);
    await sandbox.fault({ method: 'POST', path: `^/channels/${where.channel}/messages$`, status: 403, code: 50013, message: 'Missing Permissions' });
    const refused = await create(pollBody(where));
    expect(refused.status).toBe(502);
    expect(errorOf(refused).name).toBe('PlatformApiInteractionError');
    expect(errorOf(refused).message).toContain('Missing Permissions');

    await sandbox.fault({ method: 'PUT', path: '/reactions/', status: 403, code: 50013, message: 'Missing Permissions' });
    const emoji = await create(pollBody(where, { poll_answer_type: 1, answers: [answer('Yes', { emoji_name: '👍' })] }));
    expect(emoji.status).toBe(502);
    expect((await service.call('GET', '/modules/polls/entries', { query: { guild_id: where.guild } })).body.data.total).toBe(0);
    const state = await sandbox.state();
    expect(state.channels.find((c) => c.id === where.channel)?.messages ?? []).toEqual([]);
  });

  it('answers the member through the interaction webhook, on success and on failure', async () => {
    const where = await pollGuild(service);
    const sandbox = sandboxOf(service);
    const app = snowflake();
    await createPoll(service, where, { application_id: app, token: 'tok-create' });
    const [ok] = await sandbox.webhook(app, 'tok-create');
    expect(ok!.content).toContain('Your poll **Where do we meet?** is posted');
    expect(ok!.flags! & 64).toBe(64);

    const bad = await create(pollBody(where, { poll_duration: 'forever', application_id: app, token: 'tok-bad' }));
    expect(bad.status).toBe(422);
    const [told] = await sandbox.webhook(app, 'tok-bad');
    expect(told!.content).toMatch(/^Your poll could not be created\. Unprocessable Entity! Field 'poll_duration'/);
  });
});

describe('reading polls', () => {
  it('lists polls newest first with page fields, and gets one by ID', async () => {
    const where = await pollGuild(service);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createPoll(service, where, { question: `Q${i}` }));
    const page1 = await service.call('GET', '/modules/polls/entries', { query: { guild_id: where.guild, page_size: 2 } });
    expect(page1.status).toBe(200);
    expect(page1.body.data.page).toBe(1);
    expect(page1.body.data.page_size).toBe(2);
    expect(page1.body.data.total).toBe(5);
    expect(page1.body.data.polls.map((p: { question: string }) => p.question)).toEqual(['Q4', 'Q3']);
    const page3 = await service.call('GET', '/modules/polls/entries', { query: { guild_id: where.guild, page: 3, page_size: 2 } });
    expect(page3.body.data.polls.map((p: { question: string }) => p.question)).toEqual(['Q0']);
    const defaults = await service.call('GET', '/modules/polls/entries', { query: { guild_id: where.guild } });
    expect(defaults.body.data).toMatchObject({ page: 1, page_size: 10, total: 5 });
    for (const bad of [{ page: 0 }, { page_size: 101 }, { page_size: 0 }] as Record<string, number>[]) {
      expect((await service.call('GET', '/modules/polls/entries', { query: { guild_id: where.guild, ...bad } })).status).toBe(422);
    }
    expect((await service.call('GET', '/modules/polls/entries', { query: { guild_id: where.guild, page: 'x' } })).status).toBe(400);

    const one = await getPoll(service, where.guild, made[2]!.poll_id);
    expect(one.body.data.poll).toEqual(made[2]);
    const missing = await getPoll(service, where.guild, 'no-such-poll');
    expect(missing.status).toBe(404);
    expect(errorOf(missing).name).toBe('NotFoundError');
    // A poll of another guild is not found in this one.
    const other = await pollGuild(service);
    expect((await getPoll(service, other.guild, made[0]!.poll_id)).status).toBe(404);
  });

  it('pages polls stored before the list kept its own order, and drops a list place whose poll is gone', async () => {
    const where = await pollGuild(service);
    for (let i = 0; i < 4; i++) await createPoll(service, where, { question: `Old${i}` });
    // As stored before: no list places at all; then a place left by a poll that no longer exists.
    const places = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': guildKey(where.guild), ':prefix': PollListEntity.prefix },
    });
    expect(places).toHaveLength(4);
    await deleteKeys(places.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
    await putItems([PollListEntity.item({ guildId: where.guild, createdAt: '2999-01-01T00:00:00.000Z', id: 1, pollId: 'gone' }, { poll_id: 'gone' })]);
    const questions = async (page: number) =>
      (await service.call('GET', '/modules/polls/entries', { query: { guild_id: where.guild, page, page_size: 3 } })).body.data;
    const first = await questions(1);
    expect(first.total).toBe(4);
    expect(first.polls.map((p: { question: string }) => p.question)).toEqual(['Old3', 'Old2', 'Old1']);
    expect((await questions(2)).polls.map((p: { question: string }) => p.question)).toEqual(['Old0']);
    // Put right once: the places are the polls' again.
    const after = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': guildKey(where.guild), ':prefix': PollListEntity.prefix },
    });
    expect(after.map((item) => item.poll_id).sort()).toEqual(
      first.polls
        .map((p: { poll_id: string }) => p.poll_id)
        .concat((await questions(2)).polls[0].poll_id)
        .sort(),
    );
  });

  it('is refused to another guild key and to no credentials', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where);
    const key = (await service.call('POST', '/auth/api-key', { body: { guild_id: snowflake() } })).body.data.api_key.secret as string;
    expect((await service.call('GET', `/modules/polls/entry/${poll.poll_id}`, { token: key, query: { guild_id: where.guild } })).status).toBe(403);
    expect((await service.call('GET', '/modules/polls/entries', { token: null, query: { guild_id: where.guild } })).status).toBe(401);
    expect((await service.call('POST', '/modules/polls/entries', { token: key, looseBody: pollBody(where) })).status).toBe(403);
  });
});

describe('owner-only operations', () => {
  it('allow a guild key, the service token alone, and the service token acting for the owner; refuse acting for anyone else', async () => {
    const where = await pollGuild(service);
    const key = (await service.call('POST', '/auth/api-key', { body: { guild_id: where.guild } })).body.data.api_key.secret as string;
    const edit = (pollId: string, options: { token?: string; actor?: string }) =>
      service.call('PUT', `/modules/polls/entry/${pollId}`, {
        token: options.token,
        headers: options.actor ? { 'x-acting-user-id': options.actor } : {},
        body: {
          guild_id: where.guild,
          question: 'Edited',
          description: null,
          max_votes_per_answer: 1,
          is_multi_select: false,
          is_anonymous: false,
          application_id: null,
          token: null,
        },
      });
    const poll = await createPoll(service, where);
    expect((await edit(poll.poll_id, { token: key, actor: snowflake() })).status).toBe(200);
    expect((await edit(poll.poll_id, {})).status).toBe(200);
    expect((await edit(poll.poll_id, { actor: where.owner })).status).toBe(200);
    const stranger = await edit(poll.poll_id, { actor: snowflake() });
    expect(stranger.status).toBe(403);
    expect(errorOf(stranger).message).toMatch(/Only the owner of poll/);

    for (const [method, path] of [
      ['POST', `/modules/polls/entry/${poll.poll_id}/close`],
      ['DELETE', `/modules/polls/entry/${poll.poll_id}`],
    ] as const) {
      const res = await service.call(method, path, {
        headers: { 'x-acting-user-id': snowflake() },
        body: { guild_id: where.guild, application_id: null, token: null },
      });
      expect(res.status).toBe(403);
    }
    expect((await getPoll(service, where.guild, poll.poll_id)).body.data.poll.status).toBe('open');
  });
});

describe('editing', () => {
  const editBody = (guild: string, extra: Record<string, unknown> = {}) => ({
    guild_id: guild,
    question: 'Where now?',
    description: null,
    max_votes_per_answer: 2,
    is_multi_select: true,
    is_anonymous: true,
    application_id: null,
    token: null,
    ...extra,
  });

  it('changes an open service poll and re-renders its message (description None removes it)', async () => {
    const where = await pollGuild(service);
    const sandbox = sandboxOf(service);
    const poll = await createPoll(service, where);
    const app = snowflake();
    const res = await service.call('PUT', `/modules/polls/entry/${poll.poll_id}`, { body: editBody(where.guild, { application_id: app, token: 'tok-edit' }) });
    expect(res.status).toBe(200);
    expect(res.body.data.poll).toMatchObject({ question: 'Where now?', description: null, max_votes_per_answer: 2, is_multi_select: true, is_anonymous: true });
    const embed = (await messageOf(service, poll))!.embeds[0]!;
    expect(embed.title).toBe('Where now?');
    expect(embed.description).not.toContain('Pick a place');
    expect(embed.footer?.text).toContain('anonymous');
    expect((await sandbox.webhook(app, 'tok-edit'))[0]!.content).toContain('was updated');
  });

  it('refuses native polls and closed polls (422), unknown polls (404) and rule breaks (422)', async () => {
    const where = await pollGuild(service);
    const native = await createPoll(service, where, { poll_type: 1, poll_duration: '2h' });
    const r1 = await service.call('PUT', `/modules/polls/entry/${native.poll_id}`, { body: editBody(where.guild) });
    expect(r1.status).toBe(422);
    expect(errorOf(r1).message).toMatch(/platform-native poll/);
    const poll = await createPoll(service, where);
    await service.call('POST', `/modules/polls/entry/${poll.poll_id}/close`, { body: { guild_id: where.guild, application_id: null, token: null } });
    const r2 = await service.call('PUT', `/modules/polls/entry/${poll.poll_id}`, { body: editBody(where.guild) });
    expect(r2.status).toBe(422);
    expect(errorOf(r2).message).toMatch(/closed/);
    expect((await service.call('PUT', '/modules/polls/entry/nope', { body: editBody(where.guild) })).status).toBe(404);
    expect((await service.call('PUT', `/modules/polls/entry/${poll.poll_id}`, { body: editBody(where.guild, { max_votes_per_answer: 0 }) })).status).toBe(422);
    expect((await service.call('PUT', `/modules/polls/entry/${poll.poll_id}`, { body: editBody(where.guild, { question: undefined }) })).status).toBe(400);
  });

  it('undoes the change when the platform refuses the edit', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where);
    await sandboxOf(service).fault({ method: 'PATCH', path: `/messages/${poll.message_id}$`, status: 403, code: 50013, message: 'Missing Permissions' });
    const res = await service.call('PUT', `/modules/polls/entry/${poll.poll_id}`, { body: editBody(where.guild) });
    expect(res.status).toBe(502);
    expect((await getPoll(service, where.guild, poll.poll_id)).body.data.poll).toMatchObject({ question: poll.question, is_anonymous: false });
  });
});

describe('closing', () => {
  it('shows the results on the message, disables voting, and sets status, edited_with_results and delete_at', async () => {
    const where = await pollGuild(service);
    await service.call('PUT', '/modules/polls/settings', {
      body: { guild_id: where.guild, save_duration_timeout: 3600, delete_ended_platform_polls: false, delete_ended_service_polls: false },
    });
    const poll = await createPoll(service, where);
    const voter = snowflake();
    expect((await castVote(service, voter, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 2 }))).status).toBe(200);
    const app = snowflake();
    const before = Date.now();
    const res = await service.call('POST', `/modules/polls/entry/${poll.poll_id}/close`, {
      headers: { 'x-acting-user-id': where.owner },
      body: { guild_id: where.guild, application_id: app, token: 'tok-close' },
    });
    expect(res.status).toBe(200);
    const closed = res.body.data.poll;
    expect(closed).toMatchObject({ status: 'closed', edited_with_results: true });
    // The answer carries the counts the message shows.
    expect(closed.answers.map((a: PollRecord['answers'][number]) => [a.vote_count, a.votes])).toEqual([
      [0, []],
      [1, [voter]],
      [0, []],
    ]);
    const deleteAt = Date.parse(closed.delete_at);
    expect(deleteAt).toBeGreaterThanOrEqual(before + 3600_000);
    expect(deleteAt).toBeLessThan(Date.now() + 3600_000 + 1000);
    const message = (await messageOf(service, poll))!;
    expect(message.embeds[0]!.description).toContain(`<@${voter}>`);
    expect(message.embeds[0]!.description).toContain('final results');
    expect(message.components!.flatMap((r) => r.components).every((c) => c.disabled)).toBe(true);
    expect((await sandboxOf(service).webhook(app, 'tok-close'))[0]!.content).toContain('is closed');

    const again = await service.call('POST', `/modules/polls/entry/${poll.poll_id}/close`, {
      body: { guild_id: where.guild, application_id: null, token: null },
    });
    expect(again.status).toBe(422);
    const late = await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 1 }));
    expect(late.status).toBe(422);
    expect(errorOf(late).message).toMatch(/closed/);
  });

  it('ends a native poll through the platform', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, { poll_type: 1, poll_duration: '1d' });
    const res = await service.call('POST', `/modules/polls/entry/${poll.poll_id}/close`, {
      body: { guild_id: where.guild, application_id: null, token: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.poll).toMatchObject({ status: 'closed', edited_with_results: true });
    expect((await messageOf(service, poll))!.poll!.results!.is_finalized).toBe(true);
  });

  it('leaves the poll open and answers 502 when the platform refuses the results edit', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where);
    await sandboxOf(service).fault({ method: 'PATCH', path: `/messages/${poll.message_id}$`, status: 500, times: 3 });
    const res = await service.call('POST', `/modules/polls/entry/${poll.poll_id}/close`, {
      body: { guild_id: where.guild, application_id: null, token: null },
    });
    expect(res.status).toBe(502);
    expect((await getPoll(service, where.guild, poll.poll_id)).body.data.poll).toMatchObject({ status: 'open', delete_at: null, edited_with_results: false });
    const retry = await service.call('POST', `/modules/polls/entry/${poll.poll_id}/close`, {
      body: { guild_id: where.guild, application_id: null, token: null },
    });
    expect(retry.status).toBe(200);
  });
});

describe('deleting', () => {
  it('deletes the poll with its message and answers the record as it was', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where);
    await castVote(service, snowflake(), voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 1 }));
    const res = await service.call('DELETE', `/modules/polls/entry/${poll.poll_id}`, { body: { guild_id: where.guild, application_id: null, token: null } });
    expect(res.status).toBe(200);
    expect(res.body.data.poll.answers[0].vote_count).toBe(1);
    expect(await messageOf(service, poll)).toBeNull();
    expect((await getPoll(service, where.guild, poll.poll_id)).status).toBe(404);
    expect(
      (await service.call('DELETE', `/modules/polls/entry/${poll.poll_id}`, { body: { guild_id: where.guild, application_id: null, token: null } })).status,
    ).toBe(404);
  });

  it('refuses to close or delete a member native poll the service did not send (422)', async () => {
    const where = await pollGuild(service);
    const registered = await service.call('POST', '/modules/polls/handler/create', {
      body: {
        guild_id: where.guild,
        poll_id: 'member-poll-1',
        channel_id: where.channel,
        poll_type: 1,
        message_id: null,
        edited_with_results: false,
        poll_answer_type: null,
        question: 'Member asks',
        description: null,
        end_time: Math.floor(Date.now() / 1000) + 3600,
        delete_at: null,
        language: 'en',
        auto_delete: 0,
        answers: [answer('a'), answer('b')],
        is_multi_select: false,
        is_anonymous: false,
        max_votes_per_answer: 1,
        sent_by_service: false,
        poll_owner_id: snowflake(),
      },
    });
    expect(registered.status).toBe(200);
    for (const [method, path] of [
      ['POST', '/modules/polls/entry/member-poll-1/close'],
      ['DELETE', '/modules/polls/entry/member-poll-1'],
    ] as const) {
      const res = await service.call(method, path, { body: { guild_id: where.guild, application_id: null, token: null } });
      expect(res.status).toBe(422);
      expect(errorOf(res).message).toMatch(/did not send/);
    }
  });
});

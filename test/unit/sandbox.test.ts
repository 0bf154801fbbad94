import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPlatformClient, isPlatformError, PlatformCode } from '#shared/platform/client.js';
import type { APIDMChannel } from 'discord-api-types/v10';
import type { ActionRow, Message } from '#shared/platform/types.js';
import { BOT_USER, type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';
import { platformFailure } from '../helpers/platform.js';

let sandbox: Sandbox;
let platform: ReturnType<typeof createPlatformClient>;
let waits: number[];

const CHANNEL = '200000000000000001';
const GUILD = '300000000000000001';
const MEMBER = '400000000000000001';
const ROLE = '500000000000000001';

beforeAll(async () => {
  sandbox = await startSandbox();
  platform = createPlatformClient({ baseUrl: sandbox.url, token: 'sandbox', sleep: async (ms) => void waits.push(ms) });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.reset();
  waits = [];
});

/** A control route call; answers the status and the JSON body (if any). */
async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${sandbox.origin}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** A raw platform API call, for what the client would never send. */
async function raw(method: string, path: string, init: { body?: unknown; auth?: string | null } = {}) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (init.auth !== null) headers.Authorization = init.auth ?? 'Bot x';
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const buttons = (n: number, prefix = 'b'): ActionRow => ({
  type: 1,
  components: Array.from({ length: n }, (_, i) => ({ type: 2 as const, style: 1 as const, label: `${prefix}${i}`, custom_id: `${prefix}${i}` })),
});

describe('sandbox: messages', () => {
  it('posts, reads, lists newest first, edits and deletes messages', async () => {
    const first = await platform.createMessage(CHANNEL, { content: 'first' });
    const second = await platform.createMessage(CHANNEL, { content: 'second', embeds: [{ title: 'T', description: 'D' }] });

    expect(first.id).toMatch(/^[0-9]{18,19}$/);
    expect(BigInt(second.id) > BigInt(first.id)).toBe(true);
    expect(first.author.id).toBe(BOT_USER.id);
    expect(first.edited_timestamp).toBeNull();
    expect((await platform.getMessages(CHANNEL)).map((m) => m.content)).toEqual(['second', 'first']);

    const edited = await platform.editMessage(CHANNEL, first.id, { content: 'first, edited', components: [buttons(2)] });
    expect(edited.content).toBe('first, edited');
    expect(edited.edited_timestamp).not.toBeNull();
    expect((await platform.getMessage(CHANNEL, first.id)).components).toEqual([buttons(2)]);

    await platform.deleteMessage(CHANNEL, first.id);
    const gone = await platformFailure(platform.getMessage(CHANNEL, first.id));
    expect(isPlatformError(gone, { status: 404, code: PlatformCode.UnknownMessage })).toBe(true);
  });

  it('answers Unknown Channel for a channel it never saw, and 401 without a Bot token', async () => {
    const unknown = await platformFailure(platform.getChannel('999999999999999999'));
    expect(unknown.platformCode).toBe(PlatformCode.UnknownChannel);
    expect(await raw('GET', `/channels/${CHANNEL}`, { auth: null })).toEqual({ status: 401, body: { message: '401: Unauthorized', code: 0 } });
    expect((await raw('GET', `/channels/${CHANNEL}`, { auth: 'Bearer abc' })).status).toBe(401);
    expect((await raw('GET', '/channels/not-an-id')).body.code).toBe(50035);
    expect((await raw('GET', '/nothing/here')).status).toBe(404);
    expect((await raw('PUT', `/channels/${CHANNEL}`)).status).toBe(405);
  });

  it('enforces the platform limits: 2000 characters, 5 rows of 5 buttons, no empty message', async () => {
    const tooLong = await platformFailure(platform.createMessage(CHANNEL, { content: 'x'.repeat(2001) }));
    expect(tooLong.platformCode).toBe(PlatformCode.InvalidFormBody);
    expect(tooLong.reason).toContain('content: Must be 2000 or fewer in length');
    await expect(platform.createMessage(CHANNEL, { content: 'x'.repeat(2000) })).resolves.toBeTruthy();

    const sixRows = Array.from({ length: 6 }, (_, i) => buttons(1, `r${i}-`));
    expect((await platformFailure(platform.createMessage(CHANNEL, { content: 'x', components: sixRows }))).platformCode).toBe(50035);
    expect((await platformFailure(platform.createMessage(CHANNEL, { content: 'x', components: [buttons(6)] }))).platformCode).toBe(50035);
    const fiveByFive = Array.from({ length: 5 }, (_, i) => buttons(5, `r${i}-`));
    await expect(platform.createMessage(CHANNEL, { components: fiveByFive })).resolves.toBeTruthy();

    expect((await platformFailure(platform.createMessage(CHANNEL, { content: '' }))).platformCode).toBe(PlatformCode.CannotSendEmptyMessage);
  });

  it('lets members post (control route) and refuses the bot editing their messages', async () => {
    const posted = await control('POST', `/channels/${CHANNEL}/messages`, { author_id: MEMBER, content: 'hello bot' });
    expect(posted.status).toBe(200);
    expect(posted.body.author.id).toBe(MEMBER);

    const error = await platformFailure(platform.editMessage(CHANNEL, posted.body.id, { content: 'hijacked' }));
    expect(error.platformStatus).toBe(403);
    expect(error.platformCode).toBe(PlatformCode.CannotEditOthersMessage);
  });

  it('deletes channels: they stay unknown, with their messages', async () => {
    const message = await platform.createMessage(CHANNEL, { content: 'x' });
    expect((await raw('DELETE', `/channels/${CHANNEL}`)).status).toBe(200);

    expect((await platformFailure(platform.getChannel(CHANNEL))).platformCode).toBe(PlatformCode.UnknownChannel);
    expect((await platformFailure(platform.getMessage(CHANNEL, message.id))).platformCode).toBe(PlatformCode.UnknownChannel);
    expect((await platformFailure(platform.createMessage(CHANNEL, { content: 'again' }))).platformCode).toBe(PlatformCode.UnknownChannel);
  });

  it('keeps one DM channel per member', async () => {
    const dm = await platform.createDm(MEMBER);
    expect(dm.type).toBe(1);
    expect((dm as APIDMChannel).recipients?.[0]?.id).toBe(MEMBER);
    expect((await platform.createDm(MEMBER)).id).toBe(dm.id);
    await platform.createMessage(dm.id, { content: 'Welcome!' });
    expect((await platform.getMessages(dm.id)).map((m) => m.content)).toEqual(['Welcome!']);
  });
});

describe('sandbox: reactions', () => {
  it('tracks the bot and members per emoji, with `me` from the bot', async () => {
    const message = await platform.createMessage(CHANNEL, { content: 'Pick a role' });
    await platform.addOwnReaction(CHANNEL, message.id, '👍');
    await platform.addOwnReaction(CHANNEL, message.id, 'blob:700000000000000001');
    const reacted = await control('PUT', `/channels/${CHANNEL}/messages/${message.id}/reactions/${encodeURIComponent('👍')}/${MEMBER}`);
    expect(reacted.status).toBe(204);

    const seen = await platform.getMessage(CHANNEL, message.id);
    expect(seen.reactions).toEqual([
      expect.objectContaining({ count: 2, me: true, emoji: { id: null, name: '👍' } }),
      expect.objectContaining({ count: 1, me: true, emoji: { id: '700000000000000001', name: 'blob' } }),
    ]);
    expect((await platform.getReactions(CHANNEL, message.id, '👍')).map((u) => u.id).sort()).toEqual([BOT_USER.id, MEMBER].sort());

    await platform.deleteUserReaction(CHANNEL, message.id, '👍', MEMBER);
    await platform.deleteOwnReaction(CHANNEL, message.id, '👍');
    expect((await platform.getMessage(CHANNEL, message.id)).reactions?.map((r) => r.emoji.name)).toEqual(['blob']);

    await platform.addOwnReaction(CHANNEL, message.id, '✅');
    await platform.deleteAllReactionsForEmoji(CHANNEL, message.id, '✅');
    expect((await platform.getMessage(CHANNEL, message.id)).reactions).toHaveLength(1);
    await platform.deleteAllReactions(CHANNEL, message.id);
    expect((await platform.getMessage(CHANNEL, message.id)).reactions).toBeUndefined();
  });

  it('refuses a 21st distinct emoji and text that is no emoji', async () => {
    const message = await platform.createMessage(CHANNEL, { content: 'many' });
    for (let i = 1; i <= 20; i += 1) await platform.addOwnReaction(CHANNEL, message.id, { name: `e${i}`, id: String(800000000000000000n + BigInt(i)) });

    const error = await platformFailure(platform.addOwnReaction(CHANNEL, message.id, '👍'));
    expect(error.platformStatus).toBe(400);
    expect(error.platformCode).toBe(PlatformCode.MaxReactions);
    expect((await platformFailure(platform.addOwnReaction(CHANNEL, message.id, 'abc'))).platformCode).toBe(PlatformCode.UnknownEmoji);
  });
});

describe('sandbox: member roles', () => {
  it('grants and removes roles, and refuses a forbidden role with 403 Missing Permissions', async () => {
    await platform.addMemberRole(GUILD, MEMBER, ROLE);
    expect((await platform.getMember(GUILD, MEMBER)).roles).toEqual([ROLE]);
    await platform.removeMemberRole(GUILD, MEMBER, ROLE);
    expect((await platform.getMember(GUILD, MEMBER)).roles).toEqual([]);

    expect((await control('POST', `/guilds/${GUILD}/roles/${ROLE}/forbid`)).status).toBe(204);
    const error = await platformFailure(platform.addMemberRole(GUILD, MEMBER, ROLE));
    expect(error.reason).toBe(`The platform answered 403 Missing Permissions (code 50013) to PUT /guilds/${GUILD}/members/${MEMBER}/roles/${ROLE}.`);
    expect((await platform.getMember(GUILD, MEMBER)).roles).toEqual([]);

    const set = await control('PUT', `/guilds/${GUILD}/members/${MEMBER}`, { roles: ['600000000000000001'] });
    expect(set.body.roles).toEqual(['600000000000000001']);
  });
});

describe('sandbox: native polls', () => {
  it('counts member votes and ends the poll on expire', async () => {
    const posted = await platform.createMessage(CHANNEL, {
      poll: { question: { text: 'Lunch?' }, answers: [{ poll_media: { text: 'Pizza' } }, { poll_media: { text: 'Salad' } }], duration: 24 },
    });
    expect(posted.poll?.answers.map((a) => a.answer_id)).toEqual([1, 2]);
    expect(posted.poll?.results?.is_finalized).toBe(false);
    await control('PUT', `/channels/${CHANNEL}/messages/${posted.id}/poll/answers/1/${MEMBER}`);

    const ended: Message = await platform.endPoll(CHANNEL, posted.id);
    expect(ended.poll?.results).toEqual({ is_finalized: true, answer_counts: [{ id: 1, count: 1, me_voted: false }] });
    expect((await platform.getMessage(CHANNEL, posted.id)).poll?.results?.is_finalized).toBe(true);
    expect((await platformFailure(platform.endPoll(CHANNEL, posted.id))).platformCode).toBe(PlatformCode.PollExpired);

    const plain = await platform.createMessage(CHANNEL, { content: 'no poll' });
    expect((await platformFailure(platform.endPoll(CHANNEL, plain.id))).platformCode).toBe(PlatformCode.CannotExpireNonPoll);
  });
});

describe('sandbox: invites', () => {
  it('creates, lists, uses up and deletes invites', async () => {
    await control('PUT', `/channels/${CHANNEL}`, { guild_id: GUILD, name: 'welcome' });
    const invite = await platform.createChannelInvite(CHANNEL, { max_uses: 2, max_age: 0 });
    expect(invite).toMatchObject({ guild: { id: GUILD }, channel: { id: CHANNEL, name: 'welcome' }, uses: 0, max_uses: 2, expires_at: null });

    expect((await control('POST', `/invites/${invite.code}/use`)).body.uses).toBe(1);
    expect((await platform.getChannelInvites(CHANNEL)).map((i) => [i.code, i.uses])).toEqual([[invite.code, 1]]);
    await control('POST', `/invites/${invite.code}/use`);
    expect(await platform.getChannelInvites(CHANNEL)).toEqual([]);

    const other = await platform.createChannelInvite(CHANNEL);
    expect(other.max_age).toBe(86400);
    await platform.deleteInvite(other.code);
    expect((await platformFailure(platform.deleteInvite(other.code))).platformCode).toBe(PlatformCode.UnknownInvite);
  });
});

describe('sandbox: interaction webhooks', () => {
  it('keeps what was posted per application and token', async () => {
    await platform.answerInteraction('900000000000000001', 'tok-1', 'You got the role.');
    await platform.answerInteraction('900000000000000001', 'tok-1', { content: 'And another.' });

    const answers = await control('GET', '/webhooks/900000000000000001/tok-1');
    expect(answers.body.map((m: Message) => [m.content, m.flags])).toEqual([
      ['You got the role.', 64],
      ['And another.', 64],
    ]);
    expect((await control('GET', '/webhooks/900000000000000001/other')).body).toEqual([]);
  });
});

describe('sandbox: faults and the request log', () => {
  it('answers a 429 with retry_after, which the client waits out', async () => {
    const fault = await control('POST', '/faults', { method: 'POST', path: '^/channels/[0-9]+/messages$', status: 429, retry_after: 0.5, times: 1 });
    expect(fault.status).toBe(201);

    const message = await platform.createMessage(CHANNEL, { content: 'after the wait' });
    expect(message.content).toBe('after the wait');
    expect(waits).toEqual([500]);
    const log = (await control('GET', '/requests')).body as { method: string; path: string; status: number }[];
    expect(log.map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', `/channels/${CHANNEL}/messages`, 429],
      ['POST', `/channels/${CHANNEL}/messages`, 200],
    ]);
  });

  it('answers 500s a given number of times, and chosen refusals', async () => {
    await control('POST', '/faults', { path: '/channels/', status: 500, times: 3 });
    const error = await platformFailure(platform.getMessages(CHANNEL));
    expect(error.reason).toContain('500 Internal Server Error');
    expect(error.reason).toContain('after 3 attempts');

    await control('POST', '/faults', { path: '/roles/', status: 403, code: 50013, message: 'Missing Permissions' });
    expect((await platformFailure(platform.addMemberRole(GUILD, MEMBER, ROLE))).platformCode).toBe(50013);
    await expect(platform.addMemberRole(GUILD, MEMBER, ROLE)).resolves.toBeUndefined();

    await control('POST', '/faults', { path: '.', status: 503, times: 100 });
    expect((await control('GET', '/faults')).body).toHaveLength(1);
    expect((await control('DELETE', '/faults')).status).toBe(204);
    await expect(platform.createMessage(CHANNEL, { content: 'ok' })).resolves.toBeTruthy();
  });

  it('fails a request after its effect with after_effect: the message stands though the answer is a 500', async () => {
    await control('POST', '/faults', { method: 'POST', path: '/messages$', status: 500, after_effect: true });
    const answer = await raw('POST', `/channels/${CHANNEL}/messages`, { body: { content: 'stored anyway' } });
    expect(answer.status).toBe(500);
    const listed = await platform.getMessages(CHANNEL);
    expect(listed.map((m) => m.content)).toEqual(['stored anyway']);
    expect((await control('POST', '/faults', { path: '.', status: 500, after_effect: 'yes' })).status).toBe(400);
  });

  it('honours enforce_nonce: a repeated nonce in the channel answers the first message; without enforce_nonce it posts again', async () => {
    const body = { content: 'once', nonce: 'same-nonce', enforce_nonce: true };
    const first = await raw('POST', `/channels/${CHANNEL}/messages`, { body });
    const again = await raw('POST', `/channels/${CHANNEL}/messages`, { body });
    expect(again.body.id).toBe(first.body.id);
    const unenforced = await raw('POST', `/channels/${CHANNEL}/messages`, { body: { ...body, enforce_nonce: false } });
    expect(unenforced.body.id).not.toBe(first.body.id);
    expect((await platform.getMessages(CHANNEL)).length).toBe(2);
    const tooLong = await raw('POST', `/channels/${CHANNEL}/messages`, { body: { content: 'x', nonce: 'n'.repeat(26), enforce_nonce: true } });
    expect(tooLong.status).toBe(400);
  });

  it('posts one message when the platform fails after storing it: the client resends with the same nonce', async () => {
    await control('POST', '/faults', { method: 'POST', path: '/messages$', status: 502, after_effect: true });
    const message = await platform.createMessage(CHANNEL, { content: 'exactly once' });
    const listed = await platform.getMessages(CHANNEL);
    expect(listed.map((m) => m.id)).toEqual([message.id]);
  });

  it('does not resend an interaction callback that failed after its effect', async () => {
    await control('POST', '/faults', { method: 'POST', path: '/callback$', status: 500, after_effect: true });
    const error = await platformFailure(platform.interactionCallback('600000000000000001', 'tok', { type: 4, data: { content: 'answered' } }));
    expect(error.reason).toContain('not resent');
    const callbacks = (await control('GET', '/interactions')).body as { data: { content: string } }[];
    expect(callbacks.map((c) => c.data.content)).toEqual(['answered']);
  });

  it('logs platform calls only, and forgets them on request', async () => {
    await platform.createMessage(CHANNEL, { content: 'one' });
    await control('GET', '/state');
    const log = (await control('GET', '/requests')).body as unknown[];
    expect(log).toHaveLength(1);
    expect(log[0]).toEqual({ method: 'POST', path: `/channels/${CHANNEL}/messages`, status: 200, time: expect.any(String) });
    await control('DELETE', '/requests');
    expect((await control('GET', '/requests')).body).toEqual([]);
  });
});

describe('sandbox: state, reset and the page', () => {
  it('shows everything as JSON and as a page, and forgets it on reset', async () => {
    const message = await platform.createMessage(CHANNEL, { content: 'Visible <b>to people</b>' });
    const state = await control('GET', '/state');
    expect(state.body.channels).toEqual([expect.objectContaining({ id: CHANNEL, messages: [expect.objectContaining({ id: message.id })] })]);

    // The page carries the state for its script, with every '<' escaped so no content can end the script early.
    const page = await (await fetch(`${sandbox.origin}/`)).text();
    expect(page).toContain('Visible \\u003cb>to people\\u003c/b>');
    expect(page).not.toContain('<b>to people');

    expect((await control('POST', '/reset')).status).toBe(204);
    expect((await control('GET', '/state')).body.channels).toEqual([]);
    expect(sandbox.state.channels.size).toBe(0);
  });
});

/**
 * Everything a person (control routes) or the bot (REST) does on the sandbox
 * reaches a gateway session as the platform's dispatch (CONTRACT 14).
 */
import { GatewayDispatchEvents as E, GatewayIntentBits as I } from 'discord-api-types/v10';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';
import { identified, type RawGateway } from '#test/helpers/gateway.js';

const GUILD = '300000000000000002';
const CHANNEL = '200000000000000002';
const VOICE = '200000000000000003';
const MEMBER = '400000000000000002';
const ROLE = '500000000000000002';
const EVERY_INTENT = Object.values(I)
  .filter((bit): bit is number => typeof bit === 'number')
  .reduce((all, bit) => all | bit, 0);

let sandbox: Sandbox;
let gateway: RawGateway;

async function call(method: string, url: string, body?: unknown, auth = true): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
  if (auth) headers.Authorization = `Bot ${sandbox.botToken}`;
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
const control = (method: string, path: string, body?: unknown) => call(method, `${sandbox.origin}/_sandbox${path}`, body, false);
const api = (method: string, path: string, body?: unknown) => call(method, `${sandbox.url}${path}`, body);

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.reset();
  await control('PUT', `/channels/${CHANNEL}`, { guild_id: GUILD, name: 'general' });
  await control('PUT', `/channels/${VOICE}`, { guild_id: GUILD, name: 'voice', type: 2 });
  await control('POST', `/guilds/${GUILD}/members/${MEMBER}/join`, {});
  gateway = await identified(sandbox.gatewayUrl, sandbox.botToken, EVERY_INTENT);
  await gateway.dispatch(E.GuildCreate, (g) => g.id === GUILD);
});
afterEach(() => gateway.close());

describe('messages', () => {
  it('the bot posting, editing and deleting: MESSAGE_CREATE, MESSAGE_UPDATE, MESSAGE_DELETE', async () => {
    const posted = await api('POST', `/channels/${CHANNEL}/messages`, { content: 'first' });
    expect((await gateway.dispatch(E.MessageCreate)).d).toMatchObject({ id: posted.body.id, content: 'first', guild_id: GUILD });
    await api('PATCH', `/channels/${CHANNEL}/messages/${posted.body.id}`, { content: 'second' });
    expect((await gateway.dispatch(E.MessageUpdate)).d).toMatchObject({ id: posted.body.id, content: 'second' });
    await api('DELETE', `/channels/${CHANNEL}/messages/${posted.body.id}`);
    expect((await gateway.dispatch(E.MessageDelete)).d).toEqual({ id: posted.body.id, channel_id: CHANNEL, guild_id: GUILD });
  });

  it('a reaction taken back: MESSAGE_REACTION_REMOVE; a native poll vote: MESSAGE_POLL_VOTE_ADD and _REMOVE', async () => {
    const poll = { question: { text: 'Tea?' }, answers: [{ poll_media: { text: 'yes' } }, { poll_media: { text: 'no' } }], duration: 1 };
    const posted = await api('POST', `/channels/${CHANNEL}/messages`, { poll });
    const reaction = `/channels/${CHANNEL}/messages/${posted.body.id}/reactions/${encodeURIComponent('🍵')}/${MEMBER}`;
    await control('PUT', reaction);
    await control('DELETE', reaction);
    expect((await gateway.dispatch(E.MessageReactionRemove)).d).toMatchObject({ user_id: MEMBER, emoji: { name: '🍵' }, guild_id: GUILD });
    await control('PUT', `/channels/${CHANNEL}/messages/${posted.body.id}/poll/answers/1/${MEMBER}`);
    expect((await gateway.dispatch(E.MessagePollVoteAdd)).d).toEqual({
      user_id: MEMBER,
      channel_id: CHANNEL,
      message_id: posted.body.id,
      guild_id: GUILD,
      answer_id: 1,
    });
    // Without multiselect, a vote for another answer withdraws the first.
    await control('PUT', `/channels/${CHANNEL}/messages/${posted.body.id}/poll/answers/2/${MEMBER}`);
    expect((await gateway.dispatch(E.MessagePollVoteRemove)).d).toMatchObject({ answer_id: 1 });
    expect((await gateway.dispatch(E.MessagePollVoteAdd)).d).toMatchObject({ answer_id: 2 });
  });
});

describe('members', () => {
  it('joining through an invite: INVITE_CREATE, GUILD_MEMBER_ADD; single use: INVITE_DELETE; leaving: GUILD_MEMBER_REMOVE', async () => {
    const invite = await api('POST', `/channels/${CHANNEL}/invites`, { max_uses: 1 });
    expect((await gateway.dispatch(E.InviteCreate)).d).toMatchObject({ code: invite.body.code, channel_id: CHANNEL, guild_id: GUILD, max_uses: 1 });
    const joiner = '400000000000000099';
    expect((await control('POST', `/guilds/${GUILD}/members/${joiner}/join-via-invite/${invite.body.code}`, {})).status).toBe(200);
    expect((await gateway.dispatch(E.InviteDelete)).d).toEqual({ code: invite.body.code, channel_id: CHANNEL, guild_id: GUILD });
    expect((await gateway.dispatch(E.GuildMemberAdd)).d).toMatchObject({ guild_id: GUILD, user: { id: joiner }, roles: [] });
    await control('POST', `/guilds/${GUILD}/members/${joiner}/leave`);
    expect((await gateway.dispatch(E.GuildMemberRemove)).d).toMatchObject({ guild_id: GUILD, user: { id: joiner } });
  });

  it('joining through the vanity URL: GUILD_MEMBER_ADD', async () => {
    await control('PUT', `/guilds/${GUILD}/vanity`, { code: 'tea-club' });
    await control('POST', `/guilds/${GUILD}/members/400000000000000098/join-via-vanity`, {});
    expect((await gateway.dispatch(E.GuildMemberAdd)).d).toMatchObject({ user: { id: '400000000000000098' } });
  });

  it('roles the bot grants and takes through REST, and those set by a person: GUILD_MEMBER_UPDATE with the roles now held', async () => {
    await api('PUT', `/guilds/${GUILD}/members/${MEMBER}/roles/${ROLE}`);
    expect((await gateway.dispatch(E.GuildMemberUpdate)).d).toMatchObject({ guild_id: GUILD, user: { id: MEMBER }, roles: [ROLE] });
    await api('DELETE', `/guilds/${GUILD}/members/${MEMBER}/roles/${ROLE}`);
    expect((await gateway.dispatch(E.GuildMemberUpdate)).d).toMatchObject({ roles: [] });
    await control('PUT', `/guilds/${GUILD}/members/${MEMBER}`, { roles: [ROLE] });
    expect((await gateway.dispatch(E.GuildMemberUpdate)).d).toMatchObject({ roles: [ROLE] });
  });
});

describe('channels, voice, presence, guilds', () => {
  it('a channel the bot creates and deletes: CHANNEL_CREATE, CHANNEL_DELETE', async () => {
    const created = await api('POST', `/guilds/${GUILD}/channels`, { name: 'stats', type: 2 });
    expect((await gateway.dispatch(E.ChannelCreate)).d).toMatchObject({ id: created.body.id, name: 'stats', guild_id: GUILD });
    await api('DELETE', `/channels/${created.body.id}`);
    expect((await gateway.dispatch(E.ChannelDelete)).d).toMatchObject({ id: created.body.id, guild_id: GUILD });
  });

  it('a member joining and leaving voice: VOICE_STATE_UPDATE; a channel of another guild is refused', async () => {
    expect((await control('PUT', `/guilds/${GUILD}/voice/${MEMBER}`, { channel_id: VOICE })).status).toBe(200);
    expect((await gateway.dispatch(E.VoiceStateUpdate)).d).toMatchObject({ guild_id: GUILD, user_id: MEMBER, channel_id: VOICE });
    await control('PUT', `/guilds/${GUILD}/voice/${MEMBER}`, { channel_id: null });
    expect((await gateway.dispatch(E.VoiceStateUpdate)).d).toMatchObject({ user_id: MEMBER, channel_id: null });
    const refused = await control('PUT', `/guilds/${GUILD}/voice/${MEMBER}`, { channel_id: '200000000000000999' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.channel_id._errors[0].message).toMatch(/channel of guild/);
  });

  it('a presence change: PRESENCE_UPDATE; a bad status is refused with the allowed ones', async () => {
    const activities = [{ name: 'Chess', type: 0 }];
    expect((await control('PUT', `/guilds/${GUILD}/presences/${MEMBER}`, { status: 'idle', activities })).status).toBe(200);
    expect((await gateway.dispatch(E.PresenceUpdate)).d).toMatchObject({ guild_id: GUILD, user: { id: MEMBER }, status: 'idle', activities });
    const refused = await control('PUT', `/guilds/${GUILD}/presences/${MEMBER}`, { status: 'away' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.status._errors[0].message).toContain('online, idle, dnd, offline');
  });

  it('a guild added after IDENTIFY: its GUILD_CREATE when it appears', async () => {
    await control('PUT', '/guilds/300000000000000077', { name: 'Later' });
    expect((await gateway.dispatch(E.GuildCreate, (g) => g.id === '300000000000000077')).d).toMatchObject({ name: 'Later' });
  });
});

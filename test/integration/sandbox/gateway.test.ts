/**
 * The sandbox's gateway as a client sees it on the wire (CONTRACT 14): the
 * URL routes, HELLO, IDENTIFY -> READY -> GUILD_CREATE, heartbeats, the close
 * codes, RESUME and INVALID_SESSION, intents, several sessions on one token.
 */
import { GatewayCloseCodes, GatewayDispatchEvents as E, GatewayIntentBits as I, GatewayOpcodes } from 'discord-api-types/v10';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BOT_USER, type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';
import { connectGateway, identified, type RawGateway } from '#test/helpers/gateway.js';

const GUILD = '300000000000000001';
const CHANNEL = '200000000000000001';
const MEMBER = '400000000000000001';
const ROLE = '500000000000000001';
const ALL = I.Guilds | I.GuildMembers | I.GuildMessages | I.GuildMessageReactions | I.MessageContent;

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ heartbeatIntervalMs: 50 });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  // A reset gives the application every privileged intent again (the 4014 test takes some away).
  sandbox.reset();
  await control('PUT', `/guilds/${GUILD}`, { name: 'Gateway Guild' });
  await control('PUT', `/channels/${CHANNEL}`, { guild_id: GUILD, name: 'general' });
  await control('PUT', `/guilds/${GUILD}/roles/${ROLE}`, { name: 'Member' });
  await control('POST', `/guilds/${GUILD}/members/${MEMBER}/join`, { roles: [ROLE] });
});

async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${sandbox.origin}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The session ID READY gave. */
const sessionOf = (gateway: RawGateway) => (gateway.received.find((p) => p.t === E.Ready)!.d as { session_id: string }).session_id;

const post = (content: string) => control('POST', `/channels/${CHANNEL}/messages`, { author_id: MEMBER, content });

describe('the gateway URL', () => {
  it('GET /gateway answers the WebSocket URL; /gateway/bot also shards and the start limit, for the bot token only', async () => {
    const open = await fetch(`${sandbox.url}/gateway`);
    expect(await open.json()).toEqual({ url: sandbox.gatewayUrl });
    const bot = await fetch(`${sandbox.url}/gateway/bot`, { headers: { Authorization: `Bot ${sandbox.botToken}` } });
    expect(bot.status).toBe(200);
    expect(await bot.json()).toMatchObject({ url: sandbox.gatewayUrl, shards: 1, session_start_limit: { max_concurrency: 1 } });
    const wrong = await fetch(`${sandbox.url}/gateway/bot`, { headers: { Authorization: 'Bot not-the-token' } });
    expect(wrong.status).toBe(401);
  });
});

describe('the handshake', () => {
  it('says HELLO with the heartbeat interval, and acknowledges heartbeats', async () => {
    const gateway = await connectGateway(sandbox.gatewayUrl);
    const hello = await gateway.next((p) => p.op === GatewayOpcodes.Hello);
    expect(hello.d).toEqual({ heartbeat_interval: 50 });
    gateway.send({ op: GatewayOpcodes.Heartbeat, d: null });
    await gateway.next((p) => p.op === GatewayOpcodes.HeartbeatAck);
    gateway.close();
  });

  it('answers IDENTIFY with READY, then a GUILD_CREATE with the guild, its channels, roles and members', async () => {
    const gateway = await identified(sandbox.gatewayUrl, sandbox.botToken, ALL);
    const ready = gateway.received.find((p) => p.t === E.Ready)!;
    expect(ready.s).toBe(1);
    expect(ready.d).toMatchObject({
      v: 10,
      user: { id: BOT_USER.id, bot: true },
      guilds: [{ id: GUILD, unavailable: true }],
      resume_gateway_url: sandbox.gatewayUrl,
      application: { id: BOT_USER.id, flags: 0 },
    });
    expect((ready.d as { session_id: string }).session_id).toMatch(/^[0-9a-f]{32}$/);
    const guild = await gateway.dispatch(E.GuildCreate);
    expect(guild.s).toBe(2);
    expect(guild.d).toMatchObject({ id: GUILD, name: 'Gateway Guild', member_count: 1 });
    expect(guild.d.channels.map((c) => [c.id, c.name])).toEqual([[CHANNEL, 'general']]);
    expect(guild.d.roles.map((r) => r.name)).toEqual(['@everyone', 'Member', 'sandbox-bot']);
    expect(guild.d.members.map((m) => [m.user.id, m.roles])).toEqual([[MEMBER, [ROLE]]]);
    gateway.close();
  });

  it('closes with 4004 for a wrong token', async () => {
    const gateway = await connectGateway(sandbox.gatewayUrl);
    gateway.send({ op: GatewayOpcodes.Identify, d: { token: 'wrong', intents: I.Guilds, properties: {} } });
    expect(await gateway.closed).toBe(GatewayCloseCodes.AuthenticationFailed);
  });

  it('closes with 4014 when the application lacks a privileged intent asked for, and accepts the others', async () => {
    expect((await control('PUT', '/application/intents', { intents: I.MessageContent })).body).toEqual({ intents: I.MessageContent });
    const refused = await connectGateway(sandbox.gatewayUrl);
    refused.send({ op: GatewayOpcodes.Identify, d: { token: sandbox.botToken, intents: I.Guilds | I.GuildMembers, properties: {} } });
    expect(await refused.closed).toBe(GatewayCloseCodes.DisallowedIntents);
    const accepted = await identified(sandbox.gatewayUrl, sandbox.botToken, I.Guilds | I.MessageContent);
    accepted.close();
    expect((await control('PUT', '/application/intents', { intents: 1 })).status).toBe(400);
    sandbox.reset();
    expect((await control('GET', '/application/intents')).body).toEqual({ intents: I.GuildMembers | I.GuildPresences | I.MessageContent });
  });
});

describe('dispatches', () => {
  it('go to every session on the token, each numbered in its own sequence', async () => {
    const first = await identified(sandbox.gatewayUrl, sandbox.botToken, ALL);
    await first.dispatch(E.GuildCreate);
    await post('one');
    const second = await identified(sandbox.gatewayUrl, sandbox.botToken, ALL);
    await second.dispatch(E.GuildCreate);
    await post('two');
    const [a1, a2] = [await first.dispatch(E.MessageCreate), await first.dispatch(E.MessageCreate)];
    const b = await second.dispatch(E.MessageCreate);
    expect([a1.d.content, a2.d.content, b.d.content]).toEqual(['one', 'two', 'two']);
    expect([a1.s, a2.s, b.s]).toEqual([3, 4, 3]);
    expect(b.d).toMatchObject({ guild_id: GUILD, channel_id: CHANNEL, author: { id: MEMBER }, member: { roles: [ROLE] } });
    first.close();
    second.close();
  });

  it('only the events the identified intents cover', async () => {
    const messagesOnly = await identified(sandbox.gatewayUrl, sandbox.botToken, I.GuildMessages);
    const reactionsOnly = await identified(sandbox.gatewayUrl, sandbox.botToken, I.GuildMessageReactions);
    const message = await post('hello');
    await control('PUT', `/channels/${CHANNEL}/messages/${message.body.id}/reactions/${encodeURIComponent('👍')}/${MEMBER}`);
    const reaction = await reactionsOnly.dispatch(E.MessageReactionAdd);
    expect(reaction.d).toMatchObject({ user_id: MEMBER, message_id: message.body.id, emoji: { name: '👍' } });
    const created = await messagesOnly.dispatch(E.MessageCreate);
    // Without MESSAGE_CONTENT a member's message comes without its content, as on the platform.
    expect(created.d).toMatchObject({ id: message.body.id, content: '' });
    expect(await messagesOnly.none(E.MessageReactionAdd, 100)).toBe(true);
    expect(reactionsOnly.received.some((p) => p.t === E.MessageCreate || p.t === E.GuildCreate)).toBe(false);
    messagesOnly.close();
    reactionsOnly.close();
  });
});

describe('RESUME', () => {
  it('replays the dispatches missed while disconnected, then RESUMED', async () => {
    const gateway = await identified(sandbox.gatewayUrl, sandbox.botToken, ALL);
    const guild = await gateway.dispatch(E.GuildCreate);
    const sessionId = sessionOf(gateway);
    gateway.close(4000);
    await gateway.closed;
    await post('missed');
    const again = await connectGateway(sandbox.gatewayUrl);
    again.send({ op: GatewayOpcodes.Resume, d: { token: sandbox.botToken, session_id: sessionId, seq: guild.s } });
    const missed = await again.dispatch(E.MessageCreate);
    expect([missed.s, missed.d.content]).toEqual([guild.s + 1, 'missed']);
    const resumed = await again.dispatch(E.Resumed);
    expect(resumed.s).toBe(guild.s + 2);
    again.close();
  });

  it('answers INVALID_SESSION (d false) for a session it does not have, or one ended normally', async () => {
    const gateway = await identified(sandbox.gatewayUrl, sandbox.botToken, ALL);
    const sessionId = sessionOf(gateway);
    gateway.close(1000);
    await gateway.closed;
    // The sandbox sees the close a moment after the client does.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const id of [sessionId, 'no-such-session']) {
      const again = await connectGateway(sandbox.gatewayUrl);
      again.send({ op: GatewayOpcodes.Resume, d: { token: sandbox.botToken, session_id: id, seq: 1 } });
      const invalid = await again.next((p) => p.op === GatewayOpcodes.InvalidSession);
      expect(invalid.d).toBe(false);
      again.close();
    }
  });
});

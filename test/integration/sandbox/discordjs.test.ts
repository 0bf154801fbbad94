/**
 * A client nobody here wrote works against the sandbox unchanged (CONTRACT
 * 14): `@discordjs/core` over `@discordjs/ws` and `@discordjs/rest`, only
 * their base URLs pointed at the sandbox, connects (the gateway URL comes
 * from `GET /gateway/bot` through the REST instance), receives READY and a
 * member's message, reads the channel and posts a message the sandbox shows.
 */
import { Client, GatewayDispatchEvents, GatewayIntentBits, type GatewayMessageCreateDispatchData, type GatewayReadyDispatchData } from '@discordjs/core';
import { REST } from '@discordjs/rest';
import { WebSocketManager } from '@discordjs/ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_USER, type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';

const GUILD = '300000000000000005';
const CHANNEL = '200000000000000005';
const MEMBER = '400000000000000005';

let sandbox: Sandbox;
let gateway: WebSocketManager;
let client: Client;

beforeAll(async () => {
  sandbox = await startSandbox({ heartbeatIntervalMs: 500 });
  await fetch(`${sandbox.origin}/_sandbox/channels/${CHANNEL}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ guild_id: GUILD, name: 'general' }),
  });
  const rest = new REST({ api: `${sandbox.origin}/api` }).setToken(sandbox.botToken);
  gateway = new WebSocketManager({
    token: sandbox.botToken,
    intents: GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages | GatewayIntentBits.MessageContent,
    rest,
  });
  client = new Client({ rest, gateway });
});
afterAll(async () => {
  await gateway.destroy();
  await sandbox.close();
});

it('connects, gets READY and a member message, reads the channel and posts to it', async () => {
  const ready = new Promise<GatewayReadyDispatchData>((resolve) => client.once(GatewayDispatchEvents.Ready, ({ data }) => resolve(data)));
  const guildCreated = new Promise<string>((resolve) => client.once(GatewayDispatchEvents.GuildCreate, ({ data }) => resolve(data.id)));
  await gateway.connect();
  expect((await ready).user.id).toBe(BOT_USER.id);
  expect(await guildCreated).toBe(GUILD);

  const heard = new Promise<GatewayMessageCreateDispatchData>((resolve) => client.once(GatewayDispatchEvents.MessageCreate, ({ data }) => resolve(data)));
  await fetch(`${sandbox.origin}/_sandbox/channels/${CHANNEL}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ author_id: MEMBER, content: 'hello bot' }),
  });
  expect(await heard).toMatchObject({ channel_id: CHANNEL, guild_id: GUILD, content: 'hello bot', author: { id: MEMBER } });

  const read = await client.api.channels.getMessages(CHANNEL);
  expect(read.map((m) => m.content)).toEqual(['hello bot']);
  const posted = await client.api.channels.createMessage(CHANNEL, { content: 'hello member' });
  const state = (await (await fetch(`${sandbox.origin}/_sandbox/state`)).json()) as { channels: { id: string; messages: { id: string; content: string }[] }[] };
  const shown = state.channels.find((c) => c.id === CHANNEL)!.messages;
  expect(shown.map((m) => [m.id, m.content])).toContainEqual([posted.id, 'hello member']);
});

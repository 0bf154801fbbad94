/**
 * Members clicking components and submitting modals on the sandbox: the
 * control routes answer the interaction's ID and token, INTERACTION_CREATE
 * reaches the gateway, and the bot's answers (callback, follow-ups) are what
 * `GET /_sandbox/interactions/{id}` shows (CONTRACT 14).
 */
import { GatewayDispatchEvents as E, GatewayIntentBits as I, InteractionType } from 'discord-api-types/v10';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BOT_USER, type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';
import { identified, type RawGateway } from '#test/helpers/gateway.js';

const GUILD = '300000000000000003';
const CHANNEL = '200000000000000004';
const MEMBER = '400000000000000003';
const OTHER = '400000000000000004';

let sandbox: Sandbox;
let gateway: RawGateway;
let messageId: string;

async function call(method: string, url: string, body?: unknown, auth = true): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
  if (auth) headers.Authorization = `Bot ${sandbox.botToken}`;
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
const control = (method: string, path: string, body?: unknown) => call(method, `${sandbox.origin}/_sandbox${path}`, body, false);
const api = (method: string, path: string, body?: unknown) => call(method, `${sandbox.url}${path}`, body);
const click = (body: Record<string, unknown>) => control('POST', `/channels/${CHANNEL}/messages/${messageId}/click`, body);
const callback = (id: string, token: string, body: unknown) => call('POST', `${sandbox.url}/interactions/${id}/${token}/callback`, body, false);

const PASSPHRASE_MODAL = {
  type: 9,
  data: {
    custom_id: 'verify:modal',
    title: 'Verify',
    components: [{ type: 1, components: [{ type: 4, custom_id: 'passphrase', label: 'Passphrase', style: 1, min_length: 3, max_length: 20, required: true }] }],
  },
};

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.reset();
  await control('PUT', `/channels/${CHANNEL}`, { guild_id: GUILD, name: 'general' });
  await control('POST', `/guilds/${GUILD}/members/${MEMBER}/join`, {});
  await control('POST', `/guilds/${GUILD}/members/${OTHER}/join`, {});
  const posted = await api('POST', `/channels/${CHANNEL}/messages`, {
    content: 'Pick one',
    components: [
      { type: 1, components: [{ type: 2, style: 1, label: 'Vote', custom_id: 'poll:vote:1' }] },
      {
        type: 1,
        components: [
          {
            type: 3,
            custom_id: 'roles:pick',
            min_values: 1,
            max_values: 2,
            options: [
              { label: 'Red', value: 'red' },
              { label: 'Blue', value: 'blue' },
            ],
          },
        ],
      },
    ],
  });
  messageId = posted.body.id;
  gateway = await identified(sandbox.gatewayUrl, sandbox.botToken, I.Guilds | I.GuildMessages);
});
afterEach(() => gateway.close());

describe('a click', () => {
  it('on a button: INTERACTION_CREATE type 3 with the member, the message and the token the control route answered', async () => {
    const clicked = await click({ user_id: MEMBER, custom_id: 'poll:vote:1' });
    expect(clicked.status).toBe(200);
    const { d } = await gateway.dispatch(E.InteractionCreate);
    expect(d).toMatchObject({
      id: clicked.body.interaction_id,
      token: clicked.body.interaction_token,
      type: InteractionType.MessageComponent,
      application_id: BOT_USER.id,
      guild_id: GUILD,
      channel_id: CHANNEL,
      member: { user: { id: MEMBER } },
      data: { custom_id: 'poll:vote:1', component_type: 2 },
      message: { id: messageId },
    });
  });

  it('in a select: the picked values; values not among the options, or too many, are refused', async () => {
    const picked = await click({ user_id: MEMBER, custom_id: 'roles:pick', values: ['blue'] });
    expect(picked.status).toBe(200);
    expect((await gateway.dispatch(E.InteractionCreate)).d).toMatchObject({ data: { custom_id: 'roles:pick', component_type: 3, values: ['blue'] } });
    const unknown = await click({ user_id: MEMBER, custom_id: 'roles:pick', values: ['green'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.values._errors[0].message).toContain('options are red, blue');
    expect((await click({ user_id: MEMBER, custom_id: 'roles:pick', values: ['red', 'blue', 'red'] })).status).toBe(400);
  });

  it('404 when the message has no component with that custom ID; 400 without a user; nothing dispatched', async () => {
    const missing = await click({ user_id: MEMBER, custom_id: 'nope' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('nope');
    expect((await click({ custom_id: 'poll:vote:1' })).status).toBe(400);
    expect(await gateway.none(E.InteractionCreate, 100)).toBe(true);
  });
});

describe('answers', () => {
  it('a callback needs the interaction token; the callback and follow-ups show in order on GET /_sandbox/interactions/{id}', async () => {
    const { body: started } = await click({ user_id: MEMBER, custom_id: 'poll:vote:1' });
    expect((await callback(started.interaction_id, 'wrong-token', { type: 4, data: { content: 'no' } })).status).toBe(401);
    expect((await callback(started.interaction_id, started.interaction_token, { type: 4, data: { content: 'Counted.', flags: 64 } })).status).toBe(204);
    await call('POST', `${sandbox.url}/webhooks/${BOT_USER.id}/${started.interaction_token}`, { content: 'Thanks!', flags: 64 }, false);
    const shown = await control('GET', `/interactions/${started.interaction_id}`);
    expect(shown.body.interaction).toMatchObject({ id: started.interaction_id, data: { custom_id: 'poll:vote:1' } });
    expect(shown.body.answers.map((a: any) => a.data?.content ?? a.message?.content)).toEqual(['Counted.', 'Thanks!']);
    expect((await control('GET', '/interactions/123')).status).toBe(404);
  });

  it('type 7 updates the clicked message (MESSAGE_UPDATE)', async () => {
    const { body: started } = await click({ user_id: MEMBER, custom_id: 'poll:vote:1' });
    await callback(started.interaction_id, started.interaction_token, { type: 7, data: { content: 'Votes: 1' } });
    expect((await gateway.dispatch(E.MessageUpdate)).d).toMatchObject({ id: messageId, content: 'Votes: 1' });
    expect((await api('GET', `/channels/${CHANNEL}/messages/${messageId}`)).body.content).toBe('Votes: 1');
  });
});

describe('a modal', () => {
  it('answered with type 9 is submitted by the member: INTERACTION_CREATE type 5 with the text they typed', async () => {
    const { body: started } = await click({ user_id: MEMBER, custom_id: 'poll:vote:1' });
    await callback(started.interaction_id, started.interaction_token, PASSPHRASE_MODAL);
    const submitted = await control('POST', `/interactions/${started.interaction_id}/submit`, {
      user_id: MEMBER,
      custom_id: 'verify:modal',
      values: { passphrase: 'open sesame' },
    });
    expect(submitted.status).toBe(200);
    const { d } = await gateway.dispatch(E.InteractionCreate, (i) => i.type === InteractionType.ModalSubmit);
    expect(d).toMatchObject({
      id: submitted.body.interaction_id,
      token: submitted.body.interaction_token,
      member: { user: { id: MEMBER } },
      data: { custom_id: 'verify:modal', components: [{ type: 1, components: [{ type: 4, custom_id: 'passphrase', value: 'open sesame' }] }] },
    });
  });

  it('cannot be submitted when none was answered (404), by another member, empty, or with fields it lacks (400)', async () => {
    const { body: started } = await click({ user_id: MEMBER, custom_id: 'poll:vote:1' });
    const body = { user_id: MEMBER, custom_id: 'verify:modal', values: { passphrase: 'open sesame' } };
    expect((await control('POST', `/interactions/${started.interaction_id}/submit`, body)).status).toBe(404);
    await callback(started.interaction_id, started.interaction_token, PASSPHRASE_MODAL);
    const submit = (b: unknown) => control('POST', `/interactions/${started.interaction_id}/submit`, b);
    expect((await submit({ ...body, user_id: OTHER })).status).toBe(400);
    const empty = await submit({ ...body, values: {} });
    expect(empty.body.errors.values.passphrase._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    const extra = await submit({ ...body, values: { passphrase: 'open sesame', name: 'x' } });
    expect(extra.body.errors.values.name._errors[0].message).toContain('has passphrase');
    expect(await gateway.none(E.InteractionCreate, 100, (i) => i.type === InteractionType.ModalSubmit)).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';
import { ownedFieldsOf } from '#shared/http/endpoint.js';
import { loadHandler, loadSpec } from '#shared/http/load-handler.js';
import type { DeclaredField } from '#shared/http/owned.js';
import { invoke, jsonText, sampleRequest, withValue } from '../helpers/schema-samples.js';

/**
 * Behaviour §13, generated from the route table: every field a route declares
 * as a platform object of the request's guild is checked before the use
 * case. Each route is called (as the service token, against the sandbox
 * platform) with its sample request, every declared field naming an object
 * of the guild, and one naming another guild's: a 422 naming that field.
 * The check runs before anything reads the table, so no table is needed.
 */

/** Fields a route's rules refuse to hold any object, so the check never sees them there. */
const RULED_OUT: Record<string, string> = {
  'polls.create-poll body.message_id': 'a created poll has no message yet (rule: must be null); polls.handler-create checks the field',
};

/** Values a route's rules need beside the sample, for the request to reach the check. */
const NEEDS: Record<string, Record<string, unknown>> = {
  'reactionroles.create-panel': {
    is_register: true,
    panel_type: 'emoji',
    is_embed: null,
    content: null,
    keep_counter_at_one: false,
    delete_unrelated_emoji_reactions: false,
  },
  'reactionroles.add-entry': { emoji_name: '😀' },
  'polls.create-poll': { poll_duration: '1h' },
  'socials.create-stream': { stream_account: 'some_account' },
  'socials.create-rss': { rss_feed: 'https://example.org/feed.xml' },
  'socials.create-video': { video_channel_handle: '@some_handle' },
  'serverstats.create-counter': { counter_type: 7 },
};

const GUILD = '123456789012345678';
const OTHER_GUILD = '223456789012345678';

let sandbox: Sandbox;
const saved = { url: process.env.PLATFORM_API_BASE_URL, token: process.env.PLATFORM_BOT_TOKEN };
beforeAll(async () => {
  sandbox = await startSandbox();
  process.env.PLATFORM_API_BASE_URL = sandbox.url;
  process.env.PLATFORM_BOT_TOKEN = 'test';
});
afterAll(async () => {
  for (const [name, value] of [
    ['PLATFORM_API_BASE_URL', saved.url],
    ['PLATFORM_BOT_TOKEN', saved.token],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await sandbox.close();
});

let minted = 900_000_000_000_000_000n;
const mint = () => String(++minted);

async function call(method: string, url: string, body?: unknown): Promise<any> {
  const res = await fetch(url, {
    method,
    headers: { authorization: 'Bot test', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`sandbox ${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
const control = (method: string, path: string, body?: unknown) => call(method, `${sandbox.origin}/_sandbox${path}`, body);
const api = (method: string, path: string, body?: unknown) => call(method, `${sandbox.url}${path}`, body);

/** A new channel (or category) of `guild` on the sandbox. */
async function channelOf(guild: string, type = 0): Promise<string> {
  const id = mint();
  await control('PUT', `/channels/${id}`, { guild_id: guild, type });
  return id;
}

/** An object of `guild` of the declared kind; a message goes in `channel`. */
async function objectOf(field: DeclaredField, guild: string, channel: string): Promise<string> {
  switch (field.declaration.kind) {
    case 'channel':
      return channelOf(guild);
    case 'category':
      return channelOf(guild, 4);
    case 'role': {
      const id = mint();
      await control('PUT', `/guilds/${guild}/roles/${id}`, { name: `role-${id.slice(-4)}` });
      return id;
    }
    case 'message':
      return (await api('POST', `/channels/${channel}/messages`, { content: 'a message' })).id as string;
    case 'invite':
      return (await api('POST', `/channels/${await channelOf(guild)}/invites`, { max_age: 0 })).code as string;
  }
}

/** Where a declared field is in its part, with the first item of a list; and as a client writes it. */
const located = (field: DeclaredField) => field.path.map((step) => (step === '*' ? 0 : step));
const written = (field: DeclaredField) => `${field.where}${field.path.map((step) => (step === '*' ? '[0]' : `.${step}`)).join('')}`;

interface Case {
  name: string;
  route: (typeof routes)[number];
  fields: DeclaredField[];
  tested: DeclaredField;
}

const cases: Case[] = [];
for (const route of routes) {
  const fields = ownedFieldsOf(await loadSpec(route));
  for (const tested of fields) {
    const name = `${route.id} ${tested.where}.${tested.path.join('.')}`;
    if (!(name in RULED_OUT)) cases.push({ name, route, fields: fields.filter((f) => !(`${route.id} ${f.where}.${f.path.join('.')}` in RULED_OUT)), tested });
  }
}

describe('every declared platform object, in every route', () => {
  it('is found', () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s: another guild's object is a 422 naming the field", async (_name, c) => {
    const spec = await loadSpec(c.route);
    const handler = await loadHandler(c.route);
    const request = sampleRequest(spec) as { path: Record<string, unknown>; query: Record<string, unknown>; body: Record<string, unknown> | undefined };
    const parts: Record<string, unknown> = { path: request.path, query: request.query, body: request.body && { ...request.body, ...NEEDS[c.route.id] } };
    for (const where of ['query', 'body'] as const)
      if (parts[where] && 'guild_id' in (parts[where] as object)) parts[where] = { ...(parts[where] as object), guild_id: GUILD };
    // Channels first: a message goes in the channel its declaration names.
    const ordered = [...c.fields].sort((a, b) => Number(a.declaration.kind === 'message') - Number(b.declaration.kind === 'message'));
    for (const field of ordered) {
      const siblingChannel = field.declaration.channelField
        ? (withinParent(parts[field.where], located(field))?.[field.declaration.channelField] as string)
        : '';
      const foreign = field === c.tested;
      // Another guild's message: one in another channel, which the named channel does not hold.
      const value = await objectOf(
        field,
        foreign && field.declaration.kind !== 'message' ? OTHER_GUILD : GUILD,
        foreign ? await channelOf(OTHER_GUILD) : siblingChannel,
      );
      parts[field.where] = withValue(parts[field.where] ?? {}, located(field), value);
    }
    const answer = await invoke(c.route, handler, {
      path: parts.path as Record<string, string>,
      query: parts.query as Record<string, string>,
      body: parts.body === undefined ? undefined : jsonText(parts.body),
    });
    const error = JSON.parse(answer.body).error as { name: string; message: string } | undefined;
    expect({ status: answer.statusCode, name: error?.name }).toEqual({ status: 422, name: 'Unprocessable Entity' });
    expect(error!.message).toContain(`Field '${written(c.tested)}' names `);
  });
});

/** The object holding the value at `path`. */
function withinParent(root: unknown, path: (string | number)[]): Record<string, unknown> | undefined {
  let node = root as Record<string | number, unknown> | undefined;
  for (const step of path.slice(0, -1)) node = node?.[step] as Record<string | number, unknown> | undefined;
  return node as Record<string, unknown> | undefined;
}

import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlatformClient, emojiPath, isPlatformError, isPlatformNotFound, PlatformCode } from '#shared/platform/client.js';
import type { TransportOptions } from '#shared/platform/transport.js';
import { platformFailure } from '../helpers/platform.js';

/** What the fake platform answers next: a status and body, or silence (to hit the timeout). */
type Scripted = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang';
type Seen = { method: string; url: string; headers: IncomingHttpHeaders; body: string };

/** A tiny platform that answers from a script, then 200 `{}`; records every request. */
async function fakePlatform(script: Scripted[] = []) {
  const seen: Seen[] = [];
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    const next = script.shift() ?? { status: 200, body: {} };
    if (next === 'hang') return;
    const text = next.body === undefined ? '' : JSON.stringify(next.body);
    res.writeHead(next.status, { 'Content-Type': 'application/json', ...next.headers }).end(text);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  servers.push(close);
  return { baseUrl: `http://127.0.0.1:${port}/api/v10`, seen, close };
}

const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of servers.splice(0)) await close().catch(() => undefined);
});

/** A client that records its waits instead of waiting. */
function clientFor(baseUrl: string, extra: TransportOptions = {}) {
  const waits: number[] = [];
  const client = createPlatformClient({ baseUrl, token: 't0ken', sleep: async (ms) => void waits.push(ms), ...extra });
  return { client, waits };
}

describe('platform client: requests', () => {
  it('signs with Bot <token>, names itself, sends JSON and answers the parsed body', async () => {
    const platform = await fakePlatform([{ status: 200, body: { id: '1234567890123456789', content: 'hi' } }]);
    const { client } = clientFor(platform.baseUrl);

    const message = await client.createMessage('111111111111111111', { content: 'hi' });

    expect(message).toEqual({ id: '1234567890123456789', content: 'hi' });
    const [request] = platform.seen;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/api/v10/channels/111111111111111111/messages');
    expect(request!.headers.authorization).toBe('Bot t0ken');
    expect(request!.headers['user-agent']).toBe(
      'DiscordBot (https://github.com/guild-module-management-service/guild-module-management-service#readme, 0.1.0)',
    );
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body)).toMatchObject({ content: 'hi' });
  });

  it('reads PLATFORM_API_BASE_URL and PLATFORM_BOT_TOKEN at call time', async () => {
    const platform = await fakePlatform([{ status: 204 }]);
    const saved = { url: process.env.PLATFORM_API_BASE_URL, token: process.env.PLATFORM_BOT_TOKEN };
    const client = createPlatformClient();
    try {
      process.env.PLATFORM_API_BASE_URL = platform.baseUrl;
      process.env.PLATFORM_BOT_TOKEN = 'from-env';
      await expect(client.addMemberRole('1', '2', '3')).resolves.toBeUndefined();
    } finally {
      for (const [key, value] of [
        ['PLATFORM_API_BASE_URL', saved.url],
        ['PLATFORM_BOT_TOKEN', saved.token],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    expect(platform.seen[0]!.method).toBe('PUT');
    expect(platform.seen[0]!.url).toBe('/api/v10/guilds/1/members/2/roles/3');
    expect(platform.seen[0]!.headers.authorization).toBe('Bot from-env');
  });

  it('writes reaction emojis as the platform wants them: unicode encoded, custom as name:id', async () => {
    const platform = await fakePlatform([{ status: 204 }, { status: 204 }, { status: 204 }]);
    const { client } = clientFor(platform.baseUrl);

    await client.addOwnReaction('1', '2', '👍');
    await client.deleteUserReaction('1', '2', '<a:party:123456789012345678>', '42');
    await client.getReactions('1', '2', { name: 'blob', id: '77' }, { limit: 100 });

    expect(platform.seen.map((s) => s.url)).toEqual([
      '/api/v10/channels/1/messages/2/reactions/%F0%9F%91%8D/@me',
      '/api/v10/channels/1/messages/2/reactions/party:123456789012345678/42',
      '/api/v10/channels/1/messages/2/reactions/blob:77?limit=100',
    ]);
    expect(emojiPath('✅')).toBe('%E2%9C%85');
    expect(emojiPath('blob', '77')).toBe('blob:77');
  });

  it('answers an interaction with an ephemeral message that pings no one', async () => {
    const platform = await fakePlatform([{ status: 204 }]);
    const { client } = clientFor(platform.baseUrl);

    await client.answerInteraction('555', 'interaction-token', 'Role granted.');

    expect(platform.seen[0]!.url).toBe('/api/v10/webhooks/555/interaction-token');
    expect(JSON.parse(platform.seen[0]!.body)).toEqual({ content: 'Role granted.', flags: 64, allowed_mentions: { parse: [] } });
  });
});

describe('platform client: rate limits and retries', () => {
  it('waits out a 429 for retry_after seconds, then succeeds', async () => {
    const platform = await fakePlatform([
      { status: 429, body: { message: 'You are being rate limited.', retry_after: 0.25, global: false } },
      { status: 200, body: { id: '9' } },
    ]);
    const { client, waits } = clientFor(platform.baseUrl);

    await expect(client.getMessage('1', '9')).resolves.toEqual({ id: '9' });
    expect(waits).toEqual([250]);
    expect(platform.seen).toHaveLength(2);
  });

  it('falls back to the Retry-After header when the 429 body has no retry_after', async () => {
    const platform = await fakePlatform([{ status: 429, headers: { 'Retry-After': '2' } }, { status: 204 }]);
    const { client, waits } = clientFor(platform.baseUrl);

    await client.deleteMessage('1', '2');
    expect(waits).toEqual([2000]);
  });

  it('fails at once when a 429 asks for more than the wait budget', async () => {
    const platform = await fakePlatform([{ status: 429, body: { message: 'You are being rate limited.', retry_after: 60 } }]);
    const { client, waits } = clientFor(platform.baseUrl, { maxRateLimitWaitMs: 10_000 });

    const error = await platformFailure(client.getChannel('1'));
    expect(error.status).toBe(502);
    expect(error.platformStatus).toBe(429);
    expect(error.reason).toContain('429');
    expect(waits).toEqual([]);
  });

  it('retries a 5xx and succeeds when the platform recovers', async () => {
    const platform = await fakePlatform([
      { status: 502, body: { message: 'Bad Gateway', code: 0 } },
      { status: 200, body: { id: '3' } },
    ]);
    const { client, waits } = clientFor(platform.baseUrl);

    await expect(client.getChannel('3')).resolves.toEqual({ id: '3' });
    expect(platform.seen).toHaveLength(2);
    expect(waits).toHaveLength(1);
  });

  it('gives up after three 5xx answers with a 502 naming the status', async () => {
    const platform = await fakePlatform([{ status: 500 }, { status: 500 }, { status: 503 }]);
    const { client, waits } = clientFor(platform.baseUrl);

    const error = await platformFailure(client.editMessage('1', '2', { content: 'x' }));
    expect(error.status).toBe(502);
    expect(error.errorName).toBe('PlatformApiInteractionError');
    expect(error.platformStatus).toBe(503);
    expect(error.reason).toBe('The platform answered 503 Service Unavailable to PATCH /channels/1/messages/2 after 3 attempts.');
    expect(platform.seen).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });
});

describe('platform client: refusals and unreachable platforms', () => {
  it('turns a 403 into a 502 naming the platform message and code, without retrying', async () => {
    const platform = await fakePlatform([{ status: 403, body: { message: 'Missing Permissions', code: 50013 } }]);
    const { client } = clientFor(platform.baseUrl);

    const error = await platformFailure(client.addMemberRole('1', '2', '3'));
    expect(error.status).toBe(502);
    expect(error.message).toBe(
      'Platform API Interaction Error! The platform answered 403 Missing Permissions (code 50013) to PUT /guilds/1/members/2/roles/3.',
    );
    expect(isPlatformError(error, { status: 403, code: PlatformCode.MissingPermissions })).toBe(true);
    expect(platform.seen).toHaveLength(1);
  });

  it('lets a caller tell an unknown message apart', async () => {
    const platform = await fakePlatform([{ status: 404, body: { message: 'Unknown Message', code: 10008 } }]);
    const { client } = clientFor(platform.baseUrl);

    const error = await platformFailure(client.getMessage('1', '2'));
    expect(isPlatformNotFound(error, PlatformCode.UnknownMessage)).toBe(true);
    expect(error.platformStatus).toBe(404);
    expect(error.platformCode).toBe(10008);
  });

  it('never repeats an interaction token in an error', async () => {
    const platform = await fakePlatform([{ status: 404, body: { message: 'Unknown Webhook', code: 10015 } }]);
    const { client } = clientFor(platform.baseUrl);

    const error = await platformFailure(client.answerInteraction('555', 'secret-token', 'hi'));
    expect(error.reason).toBe('The platform answered 404 Unknown Webhook (code 10015) to POST /webhooks/555/***.');
  });

  it('answers 502 when the platform refuses connections, after 3 attempts', async () => {
    const platform = await fakePlatform();
    await platform.close();
    const { client, waits } = clientFor(platform.baseUrl);

    const error = await platformFailure(client.createMessage('1', { content: 'hi' }));
    expect(error.status).toBe(502);
    expect(error.platformStatus).toBeUndefined();
    const where = `${platform.baseUrl}/channels/1/messages`.replace(/[.]/g, '\\.');
    expect(error.reason).toMatch(new RegExp(`^The platform could not be reached at ${where} after 3 attempts \\(.*ECONNREFUSED.*\\)\\.$`));
    expect(waits).toHaveLength(2);
  });

  it('limits each attempt in time and retries a read that timed out', async () => {
    const platform = await fakePlatform(['hang', 'hang']);
    const { client } = clientFor(platform.baseUrl, { timeoutMs: 50, maxAttempts: 2 });

    const error = await platformFailure(client.getMessage('1', '2'));
    expect(error.status).toBe(502);
    expect(error.reason).toContain('after 2 attempts (no answer within 50 ms)');
    expect(platform.seen).toHaveLength(2);
  });

  it('does not resend a POST without a nonce that timed out (an invite), so nothing is made twice', async () => {
    const platform = await fakePlatform(['hang']);
    const { client } = clientFor(platform.baseUrl, { timeoutMs: 50 });

    const error = await platformFailure(client.createChannelInvite('1', { max_age: 0 }));
    expect(error.reason).toContain('after 1 attempt (no answer within 50 ms); not resent, since the platform may have done it already.');
    expect(platform.seen).toHaveLength(1);
  });
});

describe('platform client: each effect once', () => {
  const bodyOf = (seen: Seen) => JSON.parse(seen.body) as Record<string, unknown>;

  it('sends every message create with a nonce of at most 25 characters that the platform enforces, a new one per send', async () => {
    const platform = await fakePlatform();
    const { client } = clientFor(platform.baseUrl);

    await client.createMessage('1', { content: 'one' });
    await client.createMessage('1', { content: 'one' });

    const [first, second] = platform.seen.map(bodyOf);
    expect(first).toMatchObject({ content: 'one', enforce_nonce: true });
    expect(typeof first!.nonce).toBe('string');
    expect((first!.nonce as string).length).toBeGreaterThan(0);
    expect((first!.nonce as string).length).toBeLessThanOrEqual(25);
    expect(second!.nonce).not.toBe(first!.nonce);
  });

  it('keeps the nonce a caller derived, and enforces it', async () => {
    const platform = await fakePlatform();
    const { client } = clientFor(platform.baseUrl);

    await client.createMessage('1', { content: 'job', nonce: 'round-1-of-giveaway' });
    expect(bodyOf(platform.seen[0]!)).toMatchObject({ nonce: 'round-1-of-giveaway', enforce_nonce: true });
  });

  it('resends a message create after a 5xx or a timeout with the same nonce', async () => {
    const platform = await fakePlatform([{ status: 500 }, 'hang', { status: 200, body: { id: '9' } }]);
    const { client } = clientFor(platform.baseUrl, { timeoutMs: 50 });

    await expect(client.createMessage('1', { content: 'once' })).resolves.toEqual({ id: '9' });
    expect(platform.seen).toHaveLength(3);
    const nonces = platform.seen.map((seen) => bodyOf(seen).nonce);
    expect(new Set(nonces).size).toBe(1);
  });

  it('does not resend an interaction callback after a 5xx, and says why', async () => {
    const platform = await fakePlatform([{ status: 500 }]);
    const { client, waits } = clientFor(platform.baseUrl);

    const error = await platformFailure(client.interactionCallback('7', 'tok', { type: 4, data: { content: 'hi' } }));
    expect(error.status).toBe(502);
    expect(error.reason).toBe(
      'The platform answered 500 Internal Server Error to POST /interactions/7/***/callback after 1 attempt; not resent, since the platform may have done it already.',
    );
    expect(platform.seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('does not resend a webhook message (the platform takes no nonce there) after a 5xx', async () => {
    const platform = await fakePlatform([{ status: 503 }]);
    const { client } = clientFor(platform.baseUrl);

    await platformFailure(client.postInteractionMessage('7', 'tok', { content: 'tag' }));
    expect(platform.seen).toHaveLength(1);
  });

  it('resends opening a DM channel, which makes no second channel', async () => {
    const platform = await fakePlatform([{ status: 500 }, { status: 200, body: { id: '5' } }]);
    const { client } = clientFor(platform.baseUrl);
    await expect(client.createDm('42')).resolves.toEqual({ id: '5' });
    expect(platform.seen).toHaveLength(2);
  });

  it('resends a POST without a nonce that surely never reached the platform (connection refused)', async () => {
    const platform = await fakePlatform();
    await platform.close();
    const { client } = clientFor(platform.baseUrl);
    const error = await platformFailure(client.interactionCallback('7', 'tok', { type: 4, data: { content: 'hi' } }));
    expect(error.reason).toMatch(/after 3 attempts \(.*ECONNREFUSED.*\)\.$/);
  });
});

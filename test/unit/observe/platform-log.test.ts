import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlatformClient } from '#shared/platform/client.js';
import { routeTemplate } from '#shared/platform/transport.js';
import { observe } from '#test/helpers/observe.js';
import { platformFailure } from '#test/helpers/platform.js';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A platform on loopback answering from a script (then 200 `{}`). */
async function platformAnswering(script: { status: number; body?: unknown }[]): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    const next = script.shift() ?? { status: 200, body: {} };
    res.writeHead(next.status, { 'Content-Type': 'application/json' }).end(next.body === undefined ? '' : JSON.stringify(next.body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v10`;
}

const TOKEN = 'secret-bot-token-xyz';
const CHANNEL = '111111111111111111';
const MESSAGE = '222222222222222222';

describe('platform call logs', () => {
  it('a failed call logs its route template, status and platform code, once', async () => {
    const baseUrl = await platformAnswering([{ status: 404, body: { message: 'Unknown Message', code: 10008 } }]);
    const client = createPlatformClient({ baseUrl, token: TOKEN, sleep: async () => undefined });
    const seen = observe();
    await platformFailure(client.editMessage(CHANNEL, MESSAGE, { content: 'the secret words of a member' }));
    seen.stop();

    expect(seen.events('platform call failed')).toEqual([
      expect.objectContaining({ level: 'warn', call: 'PATCH /channels/{id}/messages/{id}', status: 404, code: 10008 }),
    ]);
    const text = JSON.stringify(seen.logs);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('the secret words');
  });

  it('each retry logs, and 5xx and 429 answers are counted', async () => {
    const baseUrl = await platformAnswering([
      { status: 503, body: { message: 'Service Unavailable', code: 0 } },
      { status: 429, body: { message: 'You are being rate limited.', retry_after: 0.01, global: false } },
    ]);
    const client = createPlatformClient({ baseUrl, token: TOKEN, sleep: async () => undefined });
    const seen = observe();
    await client.editMessage(CHANNEL, MESSAGE, { content: 'x' });
    seen.stop();

    expect(seen.events('retry')).toEqual([
      expect.objectContaining({ call: 'PATCH /channels/{id}/messages/{id}', status: 503, attempt: 2 }),
      expect.objectContaining({ call: 'PATCH /channels/{id}/messages/{id}', status: 429, wait_ms: 10 }),
    ]);
    expect(seen.events('platform call failed')).toEqual([]);
    expect(seen.total('PlatformServerErrors')).toBe(1);
    expect(seen.total('PlatformRateLimited')).toBe(1);
  });

  it('route templates keep the API words and hide IDs, emoji and tokens', () => {
    expect(routeTemplate('/channels/1/messages/2/reactions/%F0%9F%91%8D/@me')).toBe('/channels/{id}/messages/{id}/reactions/{id}/@me');
    expect(routeTemplate('/interactions/123/aW50ZXJhY3Rpb24.token/callback')).toBe('/interactions/{id}/{id}/callback');
    expect(routeTemplate('/webhooks/9/***/messages/@original?wait=true')).toBe('/webhooks/{id}/{id}/messages/@original');
  });
});

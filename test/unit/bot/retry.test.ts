/**
 * The reference bot's retry policy, and the service caller against a
 * loopback server that answers as a busy or absent service would.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../../../clients/bot/calls.js';
import { nextDelay, retryAfterMs } from '../../../clients/bot/retry.js';
import { createService } from '../../../clients/bot/service.js';

const policy = { maxAttempts: 3, maxWaitMs: 2000, baseMs: 100 };

describe('nextDelay', () => {
  it('waits what Retry-After asks on 429, 502 and 503, capped', () => {
    expect(nextDelay(policy, 1, { status: 503, retryAfter: '1' })).toBe(1000);
    expect(nextDelay(policy, 1, { status: 429, retryAfter: '0.25' })).toBe(250);
    expect(nextDelay(policy, 1, { status: 502, retryAfter: '60' })).toBe(2000);
  });

  it('takes the answer as final without Retry-After, for other statuses, and after the last attempt', () => {
    expect(nextDelay(policy, 1, { status: 503, retryAfter: null })).toBeNull();
    expect(nextDelay(policy, 1, { status: 500, retryAfter: '1' })).toBeNull();
    expect(nextDelay(policy, 1, { status: 409, retryAfter: '1' })).toBeNull();
    expect(nextDelay(policy, 3, { status: 503, retryAfter: '1' })).toBeNull();
  });

  it('backs off doubling while the service cannot be reached', () => {
    expect([1, 2].map((attempt) => nextDelay(policy, attempt, { unreachable: true }))).toEqual([100, 200]);
    expect(nextDelay(policy, 3, { unreachable: true })).toBeNull();
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 7_000)).toBe(3000);
    expect(retryAfterMs('soon')).toBeNull();
  });
});

describe('createService', () => {
  let server: Server | null = null;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  const listen = (answers: { status: number; headers?: Record<string, string>; body: unknown }[]) => {
    const seen: { url: string; actor: string | undefined; body: unknown }[] = [];
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        seen.push({ url: req.url!, actor: req.headers['x-acting-user-id'] as string | undefined, body: JSON.parse(text) });
        const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
      });
    });
    return new Promise<{ url: string; seen: typeof seen }>((resolve) =>
      server!.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen })),
    );
  };

  const enter = call(
    'post',
    '/modules/giveaways/entries/{entry_id}/enter',
    { guild_id: '1100000000000000001' },
    { actor: '1100000000000000004', pathParams: { entry_id: 'g1' } },
  );

  it('sends the path, the acting member and the body, and retries a 503 that says when', async () => {
    const { url, seen } = await listen([
      { status: 503, headers: { 'retry-after': '0' }, body: { error: { name: 'Service Unavailable', message: 'busy' } } },
      { status: 200, body: { data: {} } },
    ]);
    const result = await createService({ url, token: 't', retry: policy })(enter);
    expect(result).toEqual({ operation: 'POST /modules/giveaways/entries/{entry_id}/enter', status: 200, error: null, attempts: 2 });
    expect(seen[0]).toEqual({ url: '/modules/giveaways/entries/g1/enter', actor: '1100000000000000004', body: { guild_id: '1100000000000000001' } });
  });

  it("answers a refusal with the envelope's message, untried again", async () => {
    const { url, seen } = await listen([{ status: 409, body: { error: { name: 'Conflict', message: 'Member 1 already entered.' } } }]);
    expect(await createService({ url, token: 't', retry: policy })(enter)).toMatchObject({ status: 409, error: 'Member 1 already entered.', attempts: 1 });
    expect(seen).toHaveLength(1);
  });

  it('gives up on a service that cannot be reached after the bounded attempts', async () => {
    const { url } = await listen([]);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = null;
    const result = await createService({ url, token: 't', retry: { ...policy, baseMs: 1 } })(enter);
    expect(result).toMatchObject({ status: null, attempts: 3, error: expect.stringContaining('could not be reached') });
  });
});

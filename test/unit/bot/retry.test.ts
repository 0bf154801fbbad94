/**
 * The reference bot's retry policy, and the service caller against a
 * loopback server that answers as a busy or absent service would.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../../../clients/bot/calls.js';
import { nextDelay, retryAfterMs } from '../../../clients/bot/retry.js';
import { ATTEMPT_TIMEOUT_MS, createService } from '../../../clients/bot/service.js';
import { DEFAULT_SETTINGS } from '#infra/config.js';
import { AUTHORIZER_TIMEOUT } from '#infra/constructs/request-authorizer.js';
import { API_GATEWAY_TIMEOUT } from '#infra/constructs/service-function.js';

const policy = { maxAttempts: 3, maxWaitMs: 2000, baseMs: 100 };

describe('nextDelay', () => {
  const keyed = true;
  const unkeyed = false;

  it('waits what Retry-After asks on 429, 502 and 503, capped, keyed or not', () => {
    for (const key of [keyed, unkeyed]) {
      expect(nextDelay(policy, 1, { status: 503, retryAfter: '1' }, key)).toBe(1000);
      expect(nextDelay(policy, 1, { status: 429, retryAfter: '0.25' }, key)).toBe(250);
      expect(nextDelay(policy, 1, { status: 502, retryAfter: '60' }, key)).toBe(2000);
    }
  });

  it('with a key, retries a timeout, 429, 502, 503 and 504 that say no time, backing off doubling', () => {
    expect([1, 2].map((attempt) => nextDelay(policy, attempt, { unreachable: true, landed: true }, keyed))).toEqual([100, 200]);
    for (const status of [429, 502, 503, 504]) expect(nextDelay(policy, 2, { status, retryAfter: null }, keyed)).toBe(200);
  });

  it('with a key, waits out a 409 with Retry-After (the first attempt still runs); a 409 without it is a refusal', () => {
    expect(nextDelay(policy, 1, { status: 409, retryAfter: '1' }, keyed)).toBe(1000);
    expect(nextDelay(policy, 1, { status: 409, retryAfter: null }, keyed)).toBeNull();
    expect(nextDelay(policy, 1, { status: 409, retryAfter: '1' }, unkeyed)).toBeNull();
  });

  it('without a key, retries only what cannot have landed: a refused connection, or a status the service says to try again', () => {
    expect(nextDelay(policy, 1, { unreachable: true, landed: false }, unkeyed)).toBe(100);
    expect(nextDelay(policy, 1, { unreachable: true, landed: true }, unkeyed)).toBeNull();
    expect(nextDelay(policy, 1, { status: 503, retryAfter: null }, unkeyed)).toBeNull();
    expect(nextDelay(policy, 1, { status: 504, retryAfter: '1' }, unkeyed)).toBeNull();
  });

  it('takes any other status as final, and stops after the last attempt', () => {
    for (const status of [200, 400, 404, 422, 500]) expect(nextDelay(policy, 1, { status, retryAfter: '1' }, keyed)).toBeNull();
    expect(nextDelay(policy, 3, { status: 503, retryAfter: '1' }, keyed)).toBeNull();
    expect(nextDelay(policy, 3, { unreachable: true, landed: false }, keyed)).toBeNull();
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

  /** A service answering each request in turn (the last answer again after the list), `delayMs` late. */
  const listen = (answers: { status: number; headers?: Record<string, string>; body: unknown; delayMs?: number }[]) => {
    const seen: { url: string; actor: string | undefined; key: string | undefined; body: unknown }[] = [];
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        seen.push({
          url: req.url!,
          actor: req.headers['x-acting-user-id'] as string | undefined,
          key: req.headers['idempotency-key'] as string | undefined,
          body: JSON.parse(text),
        });
        const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
        const reply = () => {
          if (!res.destroyed) res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
        };
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
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
  const KEY = 'interaction:1100000000000000010:post.giveaways.entries.entry_id.enter';
  const keyedEnter = { ...enter, idempotencyKey: KEY };
  const ok = { status: 200, body: { data: {} } };

  it('sends the path, the acting member and the body, and retries a 503 that says when', async () => {
    const { url, seen } = await listen([
      { status: 503, headers: { 'retry-after': '0' }, body: { error: { name: 'Service Unavailable', message: 'busy' } } },
      { status: 200, body: { data: {} } },
    ]);
    const result = await createService({ url, token: 't', retry: policy })(enter);
    expect(result).toEqual({ operation: 'POST /modules/giveaways/entries/{entry_id}/enter', status: 200, error: null, errorName: null, attempts: 2 });
    expect(seen[0]).toEqual({
      url: '/modules/giveaways/entries/g1/enter',
      actor: '1100000000000000004',
      key: undefined,
      body: { guild_id: '1100000000000000001' },
    });
  });

  it("answers a refusal with the envelope's message, untried again", async () => {
    const { url, seen } = await listen([{ status: 409, body: { error: { name: 'Conflict', message: 'Member 1 already entered.' } } }]);
    expect(await createService({ url, token: 't', retry: policy })(enter)).toMatchObject({ status: 409, error: 'Member 1 already entered.', attempts: 1 });
    expect(seen).toHaveLength(1);
  });

  it("sends the call's key, and sends it again unchanged on a retry after a timed-out attempt", async () => {
    const { url, seen } = await listen([{ ...ok, delayMs: 1_000 }, ok]);
    const result = await createService({ url, token: 't', retry: policy, timeoutMs: 200 })(keyedEnter);
    expect(result).toMatchObject({ status: 200, attempts: 2 });
    expect(seen.map((s) => s.key)).toEqual([KEY, KEY]);
  });

  it('with a key, waits out a 409 with Retry-After and a 502 without it, each time with the same key', async () => {
    const { url, seen } = await listen([
      { status: 409, headers: { 'retry-after': '0' }, body: { error: { name: 'ConflictError', message: 'still running' } } },
      { status: 502, body: { message: 'Internal server error' } },
      ok,
    ]);
    expect(await createService({ url, token: 't', retry: { ...policy, maxAttempts: 4, baseMs: 1 } })(keyedEnter)).toMatchObject({
      status: 200,
      attempts: 3,
    });
    expect(seen.map((s) => s.key)).toEqual([KEY, KEY, KEY]);
  });

  it('without a key, a timed-out attempt is not sent again: it may have landed', async () => {
    const { url, seen } = await listen([{ ...ok, delayMs: 1_000 }, ok]);
    const result = await createService({ url, token: 't', retry: policy, timeoutMs: 200 })(enter);
    expect(result).toMatchObject({ status: null, attempts: 1, error: expect.stringContaining('did not answer within 0.2 s') });
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

describe('how long an attempt may take', () => {
  it('is longer than the deployed service may take: the authorizer, then the route function within the integration limit', () => {
    const longest = AUTHORIZER_TIMEOUT.toMilliseconds() + API_GATEWAY_TIMEOUT.toMilliseconds();
    expect(longest).toBe(39_000);
    expect(ATTEMPT_TIMEOUT_MS).toBeGreaterThan(longest);
    expect(DEFAULT_SETTINGS.timeoutSeconds * 1000).toBeLessThanOrEqual(API_GATEWAY_TIMEOUT.toMilliseconds());
  });
});

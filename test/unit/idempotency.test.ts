/**
 * The rules of `Idempotency-Key` (behaviour §16), through the endpoint
 * factory over an in-memory table: the header's shape, its scope, replays
 * of final answers, repeats of answers that are not final, a repeat while
 * the first call runs, a key reused for another request, and the message
 * nonces a keyed call derives.
 */
import { GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { AppError, unprocessable } from '#shared/errors.js';
import { endpoint } from '#shared/http/endpoint.js';
import { RawBody, successResponse } from '#shared/http/envelope.js';
import { keepOnce } from '#shared/http/idempotency.js';
import { answerBytes, answerOf, open, seal } from '#shared/http/idempotency-seal.js';
import { IdempotencyKeyEntity, claimKey } from '#shared/http/idempotency-store.js';
import { snowflake } from '#shared/http/schemas.js';
import { messageNonce } from '#shared/platform/nonce.js';
import { lambdaContext } from '#infra/local/lambda-context.js';
import { startTable } from './scheduler/harness.js';

let table: { stop(): Promise<void> };
beforeAll(async () => {
  table = await startTable();
});
afterAll(() => table.stop());

const Body = z.object({ n: z.int(), guild_id: z.optional(snowflake) });
const Params = z.object({ thing_id: z.string() });
const Query = z.object({ mode: z.optional(z.string()) });

/** What the use case does: counts its runs, and answers what the test sets (data, an error, a wait). */
let runs = 0;
let behaviour: () => Promise<object> = async () => ({ ran: runs });
const use = async () => {
  runs++;
  return behaviour();
};
const row = { id: 'test.keyed', body: Body, params: Params, query: Query, actor: 'optional' as const };
const keyed = endpoint(row, use);
const other = endpoint({ ...row, id: 'test.other' }, use);

const SERVICE = { caller: 'service' };
const guildCaller = (guild: string) => ({ caller: 'guild', guild_id: guild, key_id: `k${guild}` });

function event(init: {
  key?: string;
  body?: string;
  thing?: string;
  query?: Record<string, string>;
  actor?: string;
  method?: string;
  authorizer?: Record<string, string>;
}): APIGatewayProxyEvent {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.key !== undefined) headers['Idempotency-Key'] = init.key;
  if (init.actor) headers['x-acting-user-id'] = init.actor;
  return {
    resource: '/modules/polls/things/{thing_id}',
    path: `/modules/polls/things/${init.thing ?? 't1'}`,
    httpMethod: init.method ?? 'POST',
    headers,
    multiValueHeaders: {},
    queryStringParameters: init.query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: { thing_id: init.thing ?? 't1' },
    stageVariables: null,
    body: init.body ?? '{"n": 1}',
    isBase64Encoded: false,
    requestContext: { authorizer: init.authorizer ?? SERVICE },
  } as unknown as APIGatewayProxyEvent;
}

async function call(init: Parameters<typeof event>[0], handler = keyed, context: Context = lambdaContext('test')) {
  const result = await handler(event(init), context);
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
  return { status: result.statusCode, headers, text: result.body, body: JSON.parse(result.body) };
}

let keys = 0;
const freshKey = () => `evt:${process.pid}.${++keys}_k-${Date.now()}`;

beforeEach(() => {
  runs = 0;
  behaviour = async () => ({ ran: runs });
});

describe('Idempotency-Key: its shape', () => {
  it.each([
    ['empty', ''],
    ['256 characters', 'a'.repeat(256)],
    ['a space', 'abc def'],
    ['a hash', 'abc#def'],
    ['a slash', 'abc/def'],
    ['a letter outside ASCII', 'clé'],
  ])('refuses a key that is %s with 400 naming the header, and runs nothing', async (_what, key) => {
    const res = await call({ key });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('BadRequestError');
    expect(res.body.error.message).toContain("Header 'Idempotency-Key' must be 1 to 255 characters of letters, digits, '.', '_', ':' and '-'");
    expect(runs).toBe(0);
  });

  it('takes 1 to 255 characters of [A-Za-z0-9._:-]', async () => {
    for (const key of ['a', `${'Az09._:-'.repeat(31)}abcdefg`]) {
      expect(key.length === 1 || key.length === 255).toBe(true);
      expect((await call({ key: `${key.slice(0, -1)}${keys++ % 10}` })).status).toBe(200);
    }
    expect(runs).toBe(2);
  });

  it('answers a bad body before a bad key: the first failing check answers', async () => {
    const res = await call({ key: 'bad key', body: '{"n": "x"}' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("'n'");
    expect(res.body.error.message).not.toContain('Idempotency-Key');
  });

  it('is not read on a GET', async () => {
    const res = await call({ key: 'not a key', method: 'GET' });
    expect(res.status).toBe(200);
  });
});

describe('Idempotency-Key: a final answer is kept', () => {
  it('answers a repeat with the same status and body and Idempotent-Replayed: true, without running again', async () => {
    const key = freshKey();
    const first = await call({ key });
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await call({ key });
    expect({ status: again.status, text: again.text, replayed: again.headers['idempotent-replayed'] }).toEqual({
      status: 200,
      text: first.text,
      replayed: 'true',
    });
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(runs).toBe(1);
  });

  it('keeps a 4xx other than 409 and 429 (a rule the first call broke) and replays it', async () => {
    behaviour = async () => {
      throw unprocessable('Field n breaks a rule.');
    };
    const key = freshKey();
    const first = await call({ key });
    expect(first.status).toBe(422);
    behaviour = async () => ({ ran: runs });
    const again = await call({ key });
    expect({ status: again.status, text: again.text, replayed: again.headers['idempotent-replayed'] }).toEqual({
      status: 422,
      text: first.text,
      replayed: 'true',
    });
    expect(runs).toBe(1);
  });

  it('keeps nothing without a key: each call runs', async () => {
    await call({});
    await call({});
    expect(runs).toBe(2);
  });
});

/** The second call with `key` runs the use case again (answering 200, not replayed), and a third is its kept answer replayed. */
async function expectRunAgainThenKept(key: string): Promise<void> {
  const second = await call({ key });
  expect({ status: second.status, replayed: second.headers['idempotent-replayed'], data: second.body.data }).toEqual({
    status: 200,
    replayed: undefined,
    data: { ran: 2 },
  });
  const third = await call({ key });
  expect({ replayed: third.headers['idempotent-replayed'], data: third.body.data }).toEqual({ replayed: 'true', data: { ran: 2 } });
  expect(runs).toBe(2);
}

describe('Idempotency-Key: a kept answer is sealed by the key', () => {
  /** Every byte the table holds, attribute values included, as one string to search. */
  const tableText = async () => {
    const { Items = [] } = await db().send(new ScanCommand({ TableName: tableName() }));
    return Items.map((item) =>
      Object.entries(item)
        .map(([name, value]) => `${name}=${value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : String(value)}`)
        .join('\n'),
    ).join('\n');
  };
  const idOf = (key: string) => ({ scope: 'service', operation: 'test.keyed', key });

  it.each([
    ['a short answer', 1],
    ['an answer over 256 KiB (gzipped before sealing)', 20_000],
  ])('stores neither %s nor the raw key readable, and replays it to the key', async (_what, times) => {
    const secret = `secret-${process.pid}-${Date.now()}`;
    behaviour = async () => ({ secret, filler: Array.from({ length: times }, (_, i) => `${secret}.${i}`) });
    const key = freshKey();
    const first = await call({ key });
    expect(first.body.data.secret).toBe(secret);
    const stored = await tableText();
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(key);
    // The stored item is found by the key's hash and holds only ciphertext for the answer.
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: IdempotencyKeyEntity.key(idOf(key)) }));
    expect(Item).toMatchObject({ state: 'kept' });
    expect(Object.keys(Item!).filter((name) => ['status', 'headers', 'body', 'body_gz'].includes(name))).toEqual([]);
    const again = await call({ key });
    expect({ status: again.status, text: again.text, replayed: again.headers['idempotent-replayed'] }).toEqual({
      status: 200,
      text: first.text,
      replayed: 'true',
    });
    expect(runs).toBe(1);
  });

  it('seals an answer so its bytes hold no part of it, and only the same key, scope and operation open it', () => {
    const id = { scope: 'guild:41', operation: 'auth.create-api-key', key: 'mint:41:dashboard' };
    const answer = { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '{"secret":"gmk.41.abc.s3cr3t-value"}' };
    const sealed = Buffer.from(seal(id, answerBytes(answer)));
    for (const part of ['s3cr3t-value', 'application/json', 'mint:41:dashboard']) expect(sealed.includes(part)).toBe(false);
    expect(answerOf(open(id, sealed)!)).toEqual(answer);
    // Each seal has its own IV: the same answer twice is two different ciphertexts.
    expect(Buffer.from(seal(id, answerBytes(answer))).equals(sealed)).toBe(false);
    for (const other of [{ key: 'mint:41:dashboarD' }, { scope: 'guild:42' }, { operation: 'auth.revoke-api-key' }]) {
      expect(open({ ...id, ...other }, sealed)).toBeNull();
    }
    expect(open(id, sealed.subarray(0, 20))).toBeNull();
  });

  it('runs a repeat again, never answering 500, when its kept answer does not open (an altered item)', async () => {
    const key = freshKey();
    expect((await call({ key })).status).toBe(200);
    const keyOf = IdempotencyKeyEntity.key(idOf(key));
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keyOf }));
    const altered = Buffer.from(Item!.answer as Uint8Array);
    altered[altered.length - 1]! ^= 1;
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...Item, answer: altered } }));
    // It runs again; its answer is kept anew, sealed, and replayed from then on.
    await expectRunAgainThenKept(key);
  });
});

describe('Idempotency-Key: an answer that is not final is not kept', () => {
  it.each([
    ['a 503', () => new AppError('DatabaseError', 'The table is down.', { headers: { 'Retry-After': '1' } })],
    ['a 502', () => new AppError('PlatformApiInteractionError', 'The platform failed.')],
    ['a 409', () => new AppError('ModuleDisabledError', 'The module is off.')],
    ['a 429', () => new AppError('RateLimitedError', 'Slow down.')],
    ['a 500', () => new Error('boom')],
  ])('after %s, a repeat runs again and its answer is then kept', async (_what, failure) => {
    const key = freshKey();
    behaviour = async () => {
      throw failure();
    };
    const first = await call({ key });
    expect(first.status).toBeGreaterThanOrEqual(409);
    behaviour = async () => ({ ran: runs });
    await expectRunAgainThenKept(key);
  });
});

describe('Idempotency-Key: a repeat while the first call runs', () => {
  it('answers 409 ConflictError with Retry-After, then the kept answer once the first has answered', async () => {
    const key = freshKey();
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    behaviour = async () => {
      await gate;
      return { ran: runs };
    };
    const first = call({ key });
    // The first call holds the key once its claim is written.
    let during: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 100 && !during; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (runs === 1) during = await call({ key });
    }
    expect(during!.status).toBe(409);
    expect(during!.body.error.name).toBe('ConflictError');
    expect(during!.body.error.message).toContain('Idempotency-Key');
    const wait = Number(during!.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    // The lease is the function's time left (10 s in local mode) and a margin: never longer.
    expect(wait).toBeLessThanOrEqual(12);
    finish();
    expect((await first).status).toBe(200);
    const after = await call({ key });
    expect({ status: after.status, replayed: after.headers['idempotent-replayed'], data: after.body.data }).toEqual({
      status: 200,
      replayed: 'true',
      data: { ran: 1 },
    });
    expect(runs).toBe(1);
  });

  it('lets a repeat run once the first attempt has lost its lease (a crashed or timed-out function)', async () => {
    const key = freshKey();
    const now = Math.floor(Date.now() / 1000);
    // A first attempt that claimed the key and never answered: its lease ended a second ago.
    const { fingerprintOf } = await import('#shared/http/idempotency.js');
    const fingerprint = fingerprintOf(event({ key }), null);
    expect(
      (await claimKey({ scope: 'service', operation: 'test.keyed', key }, { fingerprint, attempt: 'crashed', leaseUntil: now - 1, now: now - 10 })).claimed,
    ).toBe(true);
    const res = await call({ key });
    expect({ status: res.status, replayed: res.headers['idempotent-replayed'] }).toEqual({ status: 200, replayed: undefined });
    expect(runs).toBe(1);
  });
});

describe('Idempotency-Key: a key sent again with another request', () => {
  it.each([
    ['another body', { body: '{"n": 2}' }],
    ['another path', { thing: 't2' }],
    ['another query', { query: { mode: 'x' } }],
    ['another acting member', { actor: '223456789012345678' }],
  ])('answers 422 naming Idempotency-Key for %s, and runs nothing', async (_what, change) => {
    const key = freshKey();
    expect((await call({ key })).status).toBe(200);
    const res = await call({ key, ...change });
    expect(res.status).toBe(422);
    expect(res.body.error.name).toBe('Unprocessable Entity');
    expect(res.body.error.message).toContain("Header 'Idempotency-Key'");
    expect(runs).toBe(1);
  });
});

describe('Idempotency-Key: its scope', () => {
  it('is the credential: the service token, one guild key, another guild key are three keys', async () => {
    const key = freshKey();
    const service = await call({ key });
    const guildA = await call({ key, authorizer: guildCaller('41') });
    const guildB = await call({ key, authorizer: guildCaller('42') });
    expect([service, guildA, guildB].map((r) => [r.status, r.headers['idempotent-replayed'], r.body.data.ran])).toEqual([
      [200, undefined, 1],
      [200, undefined, 2],
      [200, undefined, 3],
    ]);
    // Each is kept in its own scope, and another key of the same guild is the same scope.
    const againA = await call({ key, authorizer: { ...guildCaller('41'), key_id: 'another key of guild 41' } });
    expect([againA.headers['idempotent-replayed'], againA.body.data.ran]).toEqual(['true', 2]);
    expect(runs).toBe(3);
  });

  it('is the operation: the same key on another route is another key', async () => {
    const key = freshKey();
    expect((await call({ key })).body.data.ran).toBe(1);
    const res = await call({ key }, other);
    expect([res.status, res.headers['idempotent-replayed'], res.body.data.ran]).toEqual([200, undefined, 2]);
  });
});

describe('Idempotency-Key: message nonces', () => {
  it("derives each message's nonce from the key, its scope, the channel and the post's place in it, so a repeat carries the same", async () => {
    const nonces: string[][] = [];
    let fail = true;
    behaviour = async () => {
      nonces.push([messageNonce('7'), messageNonce('7'), messageNonce('8')]);
      if (fail) throw new AppError('PlatformApiInteractionError', 'The platform failed after posting.');
      return {};
    };
    const key = freshKey();
    expect((await call({ key })).status).toBe(502);
    fail = false;
    expect((await call({ key })).status).toBe(200);
    expect(nonces[1]).toEqual(nonces[0]);
    expect(new Set(nonces[0]).size).toBe(3);
    expect(nonces[0]!.every((n) => n.length <= 25)).toBe(true);
    // Another scope, another key, or no key at all: other nonces.
    await call({ key, authorizer: guildCaller('41') });
    await call({ key: freshKey() });
    await call({});
    await call({});
    const firsts = nonces.map((n) => n[0]);
    expect(new Set(firsts).size).toBe(firsts.length - 1);
  });
});

describe('Idempotency-Key kept by the use case (a row with idempotency: use-case)', () => {
  /** The use case writes its own items safely (here: none) and keeps its answer under the key in one write. */
  const keepsOwn = endpoint({ ...row, id: 'test.own', idempotency: 'use-case' as const }, async ({ key, body }) => {
    runs++;
    const answer = { n: body.n, ran: runs };
    if (!key) return answer;
    const kept = await keepOnce(key.id, key.fingerprint, successResponse(answer), false);
    return kept.kept ? answer : new RawBody('application/json', kept.replay.body, { 'Idempotent-Replayed': 'true' }, kept.replay.statusCode);
  });
  /** Puts to the key's items during `run`, by the state they write. */
  async function keyWrites(run: () => Promise<unknown>): Promise<string[]> {
    const states: string[] = [];
    db().middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Item?: Record<string, unknown> };
        if (/^Put(Item)?Command$/.test(String(context.commandName)) && String(input.Item?.pk).startsWith('IDEM#')) states.push(String(input.Item?.state));
        return next(args);
      },
      { step: 'initialize', name: 'keyWrites' },
    );
    try {
      await run();
    } finally {
      db().middlewareStack.remove('keyWrites');
    }
    return states;
  }

  it('takes no key before the use case: a first call is one write of the kept answer, and a repeat replays it', async () => {
    const key = freshKey();
    let first: Awaited<ReturnType<typeof call>> | undefined;
    expect(await keyWrites(async () => (first = await call({ key }, keepsOwn)))).toEqual(['kept']);
    const again = await call({ key }, keepsOwn);
    expect({ status: again.status, text: again.text, replayed: again.headers['idempotent-replayed'] }).toEqual({
      status: 200,
      text: first!.text,
      replayed: 'true',
    });
  });

  it('answers 422 naming Idempotency-Key when the key was kept for another request', async () => {
    const key = freshKey();
    expect((await call({ key }, keepsOwn)).status).toBe(200);
    const res = await call({ key, body: '{"n": 2}' }, keepsOwn);
    expect([res.status, res.body.error.name]).toEqual([422, 'Unprocessable Entity']);
    expect(res.body.error.message).toContain("Header 'Idempotency-Key'");
  });

  it('hands no key without the header, and keeps nothing', async () => {
    expect(await keyWrites(() => call({}, keepsOwn))).toEqual([]);
  });

  it("tells a repeat whether the kept answer relied on items an earlier attempt wrote, and sees the endpoint's kept answers too", async () => {
    const id = { scope: 'service', operation: 'test.relied', key: freshKey() };
    const answer = successResponse({ n: 1 });
    expect(await keepOnce(id, 'fp', answer, true)).toEqual({ kept: true });
    expect(await keepOnce(id, 'fp', answer, false)).toMatchObject({ kept: false, relied: true, replay: { statusCode: 200, body: answer.body } });
    await expect(keepOnce(id, 'other', answer, false)).rejects.toMatchObject({ status: 422 });
    // A key the endpoint kept the usual way (take, keep) is the same key to a use case keeping its own.
    const key = freshKey();
    const first = await call({ key });
    const seen = await keepOnce({ scope: 'service', operation: 'test.keyed', key }, 'not the fingerprint', answer, false).catch(
      (error: AppError) => error.status,
    );
    expect([first.status, seen]).toEqual([200, 422]);
  });
});

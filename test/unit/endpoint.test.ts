import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { AppError, unprocessable } from '#shared/errors.js';
import { endpoint } from '#shared/http/endpoint.js';
import { RawBody } from '#shared/http/envelope.js';
import type { NamedObject } from '#shared/http/owned.js';
import { channelId, channelSetting, messageIn, nullableSnowflake, pagination, roleId, snowflake } from '#shared/http/schemas.js';
import { lambdaContext } from '#infra/local/lambda-context.js';

function event(init: {
  method?: string;
  body?: string | null;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  authorizer?: Record<string, string> | null;
}): APIGatewayProxyEvent {
  return {
    resource: '/modules/polls/thing',
    path: '/modules/polls/thing',
    httpMethod: init.method ?? 'POST',
    headers: init.headers ?? {},
    multiValueHeaders: {},
    queryStringParameters: init.query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: init.body === undefined ? null : init.body,
    isBase64Encoded: false,
    requestContext: { authorizer: init.authorizer === undefined ? { caller: 'service' } : init.authorizer },
  } as unknown as APIGatewayProxyEvent;
}

const Body = z.object({
  guild_id: snowflake,
  count: z.int().check(z.gte(1), z.lte(5)),
  kind: z.optional(z.enum(['a', 'b'])),
});

const echo = endpoint({ id: 'test.endpoint', body: Body }, ({ body, actor, caller, module }) => ({ body, actor, caller, module }));

async function call(handler: typeof echo, e: APIGatewayProxyEvent) {
  const result = await handler(e, lambdaContext('test'));
  return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body) };
}

describe('the endpoint factory', () => {
  it('answers the success envelope with the use case data', async () => {
    const res = await call(echo, event({ body: '{"guild_id": "42", "count": 2}' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { body: { guild_id: '42', count: 2 }, actor: null, caller: { kind: 'service' }, module: 'polls' } });
  });

  it('keeps a snowflake sent as a JSON integer digit for digit, up to 2^64 - 1', async () => {
    const res = await call(echo, event({ body: '{"guild_id": 18446744073709551615, "count": 1}' }));
    expect(res.status).toBe(200);
    expect(res.body.data.body.guild_id).toBe('18446744073709551615');
    const big = await call(echo, event({ body: '{"guild_id": 1234567890123456789, "count": 1}' }));
    expect(big.body.data.body.guild_id).toBe('1234567890123456789');
  });

  it.each([
    ['2^64 as an integer', '18446744073709551616'],
    ['2^64 as a string', '"18446744073709551616"'],
    ['a negative integer', '-1'],
    ['a fraction', '1.5'],
    ['letters', '"12a"'],
    ['an empty string', '""'],
    ['21 digits', '"123456789012345678901"'],
    ['a boolean', 'true'],
    ['an array', '[1]'],
    ['an object', '{}'],
    ['null', 'null'],
  ])('refuses %s as an ID with 400 naming the field', async (_what, literal) => {
    const res = await call(echo, event({ body: `{"guild_id": ${literal}, "count": 1}` }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 400, name: 'BadRequestError' });
    expect(res.body.error.message).toMatch(/^Bad Request! Field 'guild_id' must be .*snowflake/);
  });

  it('reads an ID that may be None as null whether sent as null or left out', async () => {
    const optional = endpoint({ id: 'test.endpoint', body: z.object({ guild_id: snowflake, message_id: nullableSnowflake }) }, ({ body }) => body);
    for (const text of ['{"guild_id": 1}', '{"guild_id": 1, "message_id": null}']) {
      const res = await call(optional as typeof echo, event({ body: text }));
      expect(res.body.data).toEqual({ guild_id: '1', message_id: null });
    }
    const given = await call(optional as typeof echo, event({ body: '{"guild_id": 1, "message_id": 12345678901234567890}' }));
    expect(given.body.data.message_id).toBe('12345678901234567890');
    const bad = await call(optional as typeof echo, event({ body: '{"guild_id": 1, "message_id": "x"}' }));
    expect(bad.status).toBe(400);
  });

  it('says which field is missing', async () => {
    const res = await call(echo, event({ body: '{"count": 1}' }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Bad Request! Field 'guild_id' is required/);
  });

  it('answers 400 for a wrong type and 422 for a broken rule', async () => {
    const wrongType = await call(echo, event({ body: '{"guild_id": "1", "count": "3"}' }));
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toBe("Bad Request! Field 'count' must be a number, not a string.");
    const tooBig = await call(echo, event({ body: '{"guild_id": "1", "count": 9}' }));
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.error).toEqual({ code: 422, name: 'Unprocessable Entity', message: "Unprocessable Entity! Field 'count' must be at most 5." });
    const notAllowed = await call(echo, event({ body: '{"guild_id": "1", "count": 1, "kind": "z"}' }));
    expect(notAllowed.status).toBe(422);
    expect(notAllowed.body.error.message).toContain('must be one of: "a", "b"');
  });

  it('refuses an integer above 2^53 where a number is expected as out of range (422, contract 3.2), without losing or crashing', async () => {
    const res = await call(echo, event({ body: '{"guild_id": "1", "count": 123456789012345678901234567890}' }));
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe("Unprocessable Entity! Field 'count' must be at most 9007199254740991 and at least -9007199254740991.");
  });

  it.each([
    ['not JSON', '{"guild_id": '],
    ['an array', '[]'],
    ['null', 'null'],
    ['a number', '7'],
    ['a string', '"hello"'],
    ['empty', ''],
    ['only spaces', '   '],
  ])('refuses a body that is %s with 400', async (_what, text) => {
    const res = await call(echo, event({ body: text }));
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('BadRequestError');
    expect(res.body.error.message).toMatch(/^Bad Request! The request body/);
  });

  it('answers 413 for a body over 64 KiB before anything else', async () => {
    const res = await call(echo, event({ body: `{"x": "${'a'.repeat(64 * 1024)}"}`, authorizer: null }));
    expect(res.status).toBe(413);
    expect(res.body.error.name).toBe('PayloadTooLargeError');
  });

  it('checks shape before the guild scope, and the guild scope before rules', async () => {
    const key = { caller: 'guild', guild_id: '100', key_id: 'k' };
    const shape = await call(echo, event({ body: '{"guild_id": "200", "count": "x"}', authorizer: key }));
    expect(shape.status).toBe(400);
    const scope = await call(echo, event({ body: '{"guild_id": "200", "count": 99}', authorizer: key }));
    expect(scope.status).toBe(403);
    expect(scope.body.error.message).toBe('Forbidden! This API key belongs to guild 100; it cannot act on guild 200.');
    const rule = await call(echo, event({ body: '{"guild_id": "100", "count": 99}', authorizer: key }));
    expect(rule.status).toBe(422);
    const ok = await call(echo, event({ body: '{"guild_id": 100, "count": 1}', authorizer: key }));
    expect(ok.status).toBe(200);
    expect(ok.body.data.caller).toEqual({ kind: 'guild', guildId: '100', keyId: 'k' });
  });

  it('reads X-Acting-User-Id, requires it where asked, and refuses a malformed one', async () => {
    const needs = endpoint({ id: 'test.endpoint', body: Body, actor: 'required' }, ({ actor }) => ({ actor }));
    const body = '{"guild_id": "1", "count": 1}';
    const missing = await call(needs, event({ body }));
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain("'X-Acting-User-Id' is required");
    const bad = await call(needs, event({ body, headers: { 'X-Acting-User-Id': 'bob' } }));
    expect(bad.status).toBe(400);
    const good = await call(needs, event({ body, headers: { 'x-acting-user-id': '18446744073709551615' } }));
    expect(good.body.data.actor).toBe('18446744073709551615');
    const optional = await call(echo, event({ body, headers: { 'X-Acting-User-Id': '77' } }));
    expect(optional.body.data.actor).toBe('77');
  });

  it('validates query strings: pagination defaults, 422 outside 1..100, 400 for non-numbers', async () => {
    const list = endpoint({ id: 'test.endpoint', query: z.object({ guild_id: snowflake, ...pagination }) }, ({ query }) => query);
    const defaults = await call(list, event({ method: 'GET', query: { guild_id: '5' } }));
    expect(defaults.body.data).toEqual({ guild_id: '5', page: 1, page_size: 10 });
    const outside = await call(list, event({ method: 'GET', query: { guild_id: '5', page_size: '101' } }));
    expect(outside.status).toBe(422);
    expect(outside.body.error.message).toBe("Unprocessable Entity! Field 'page_size' must be at most 100.");
    const zero = await call(list, event({ method: 'GET', query: { guild_id: '5', page: '0' } }));
    expect(zero.status).toBe(422);
    const word = await call(list, event({ method: 'GET', query: { guild_id: '5', page: 'two' } }));
    expect(word.status).toBe(400);
    // A whole number of any length is well-formed: past 2^53 it is out of range, a rule.
    for (const huge of ['18446744073709551616', '9'.repeat(400)]) {
      const big = await call(list, event({ method: 'GET', query: { guild_id: '5', page_size: huge } }));
      expect({ huge, status: big.status }).toEqual({ huge, status: 422 });
      expect(big.body.error.message).toContain("Field 'page_size' must be at most");
    }
  });

  it('answers an AppError as its envelope, including the check quirk code', async () => {
    const quirk = endpoint({ id: 'test.endpoint' }, () => {
      throw new AppError('Unprocessable Entity', 'No entry uses this emoji.', { status: 404 });
    });
    const res = await call(quirk, event({ method: 'GET' }));
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: 404, name: 'Unprocessable Entity', message: 'Unprocessable Entity! No entry uses this emoji.' });
  });

  it('answers an unexpected failure as a 500 naming the request ID and nothing internal', async () => {
    const broken = endpoint({ id: 'test.endpoint' }, () => {
      throw new TypeError('secret internal detail');
    });
    const res = await call(broken, event({ method: 'GET' }));
    expect(res.status).toBe(500);
    expect(res.body.error.name).toBe('InternalServerError');
    expect(res.body.error.message).toMatch(/^Internal Server Error! .*request ID [0-9a-f-]{36}\.$/);
    expect(JSON.stringify(res.body)).not.toContain('secret internal detail');
  });

  it('answers an unreachable table as 503 with Retry-After', async () => {
    const throttled = endpoint({ id: 'test.endpoint' }, () => {
      throw Object.assign(new Error('slow down'), { name: 'ThrottlingException', $metadata: {} });
    });
    const res = await call(throttled, event({ method: 'GET' }));
    expect(res.status).toBe(503);
    expect(res.body.error.name).toBe('DatabaseError');
    expect(res.headers['Retry-After']).toBe('1');
  });

  it('lists every problem of a request, counting them in the first sentence, and recites at most 25', async () => {
    const res = await call(echo, event({ body: '{"guild_id": "42", "count": 9, "kind": "c"}' }));
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe(
      'Unprocessable Entity! Field \'count\' must be at most 5 (1 more problem in the body). Field \'kind\' must be one of: "a", "b".',
    );
    const List = endpoint({ id: 'test.endpoint', body: z.object({ ids: z.array(z.string().check(z.maxLength(1))) }) }, () => ({}));
    const many = await call(List, event({ body: JSON.stringify({ ids: Array(30).fill('xx') }) }));
    expect(many.body.error.message).toMatch(/^Unprocessable Entity! Field 'ids\[0\]' must be at most 1 characters \(29 more problems in the body\)\. /);
    expect(many.body.error.message).toMatch(/Field 'ids\[24\]' must be at most 1 characters\. \(5 more not listed\.\)$/);
  });

  it.each([null, true, [], {}, 1.5, '18446744073709551616'])('answers an enum field sent as %j with 400, a missing one too', async (value) => {
    const raw = `{"guild_id": "42", "count": 1, "kind": ${typeof value === 'string' ? value : JSON.stringify(value)}}`;
    const res = await call(echo, event({ body: raw }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Bad Request! Field 'kind' must be one of: "a", "b", not /);
    const Required = endpoint({ id: 'test.endpoint', body: z.object({ kind: z.enum(['a', 'b']) }) }, () => ({}));
    const missing = await call(Required, event({ body: '{}' }));
    expect(missing.body.error).toEqual({ code: 400, name: 'BadRequestError', message: 'Bad Request! Field \'kind\' is required (one of: "a", "b").' });
  });

  it('answers a path ID longer than any ID with 404 before anything else', async () => {
    const Get = endpoint({ id: 'test.endpoint', params: z.object({ thing_id: z.string() }) }, () => {
      throw new Error('must not run');
    });
    const res = await call(Get, { ...event({ method: 'GET' }), pathParameters: { thing_id: 'x'.repeat(1020) } });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/^Not Found! No record has the thing_id "x{40}\.\.\.": IDs are at most 128 characters \(this one has 1020\)\.$/);
  });

  it('answers every failure of a route with an error page as that page, never the envelope, keeping Retry-After', async () => {
    const page = (error: AppError) =>
      new RawBody(
        'text/html; charset=utf-8',
        `<p>${error.status}: ${error.message}</p>`,
        { 'cache-control': 'no-store' },
        error.status === 422 ? 403 : error.status,
      );
    const Query = z.object({ token: z.string().check(z.maxLength(5)) });
    const failures: [string, () => unknown, APIGatewayProxyEvent, number][] = [
      ['a broken rule', () => ({}), event({ method: 'GET', query: { token: 'too long' } }), 403],
      ['a missing field', () => ({}), event({ method: 'GET' }), 400],
      ['a body over 64 KiB', () => ({}), event({ body: 'x'.repeat(70_000) }), 413],
      [
        'an AppError',
        () => {
          throw new AppError('ModuleDisabledError', 'off');
        },
        event({ method: 'GET', query: { token: 'a' } }),
        409,
      ],
      [
        'an unexpected failure',
        () => {
          throw new TypeError('secret internal detail');
        },
        event({ method: 'GET', query: { token: 'a' } }),
        500,
      ],
      [
        'an unreachable table',
        () => {
          throw Object.assign(new Error('slow down'), { name: 'ThrottlingException', $metadata: {} });
        },
        event({ method: 'GET', query: { token: 'a' } }),
        503,
      ],
    ];
    for (const [label, run, e, status] of failures) {
      const result = await endpoint({ id: 'test.endpoint', query: Query, errorPage: page }, run as () => object)(e, lambdaContext('test'));
      expect(result.statusCode, label).toBe(status);
      expect(result.headers?.['content-type'], label).toBe('text/html; charset=utf-8');
      expect(result.headers?.['cache-control'], label).toBe('no-store');
      expect(result.body, label).toMatch(/^<p>\d{3}: /);
      expect(result.body, label).not.toContain('secret internal detail');
      if (status === 503) expect(result.headers?.['Retry-After']).toBe('1');
    }
  });

  describe('platform objects the request names (contract 13)', () => {
    const Owned = z.object({
      guild_id: snowflake,
      channel_id: channelId,
      message_id: messageIn('channel_id'),
      setting: channelSetting(),
      entries: z.array(z.object({ role_id: roleId })),
    });

    it('will not build an endpoint that declares such fields without naming the check, nor one naming it for nothing', () => {
      expect(() => endpoint({ id: 'test.endpoint', body: Owned }, () => ({}))).toThrow(
        /body\.channel_id, body\.message_id, body\.setting, body\.entries\.\*\.role_id.*owned: checkOwned/,
      );
      expect(() => endpoint({ id: 'test.endpoint', body: Body, owned: async () => undefined }, () => ({}))).toThrow(
        /no field of its schemas names a platform object/,
      );
    });

    it('hands the check every named object, as a client writes its field, before the use case; a refusal runs nothing', async () => {
      const seen: { guild: string; named: NamedObject[] }[] = [];
      let ran = 0;
      const refuse = new Set<string>();
      const handler = endpoint(
        {
          id: 'test.endpoint',
          body: Owned,
          owned: async (guild, named) => {
            seen.push({ guild, named });
            const refused = named.find((n) => refuse.has(n.id));
            if (refused) throw unprocessable(`Field '${refused.field}' names something of another guild.`);
          },
        },
        () => ({ ran: ++ran }),
      );
      const body = '{"guild_id": "42", "channel_id": 18446744073709551615, "message_id": "7", "setting": "", "entries": [{"role_id": "8"}, {"role_id": 9}]}';
      expect((await call(handler, event({ body }))).status).toBe(200);
      expect(seen).toEqual([
        {
          guild: '42',
          named: [
            { field: 'body.channel_id', id: '18446744073709551615', declaration: { kind: 'channel' } },
            { field: 'body.message_id', id: '7', declaration: { kind: 'message', channelField: 'channel_id' }, channelId: '18446744073709551615' },
            { field: 'body.entries[0].role_id', id: '8', declaration: { kind: 'role' } },
            { field: 'body.entries[1].role_id', id: '9', declaration: { kind: 'role' } },
          ],
        },
      ]);
      refuse.add('9');
      const res = await call(handler, event({ body }));
      expect(res.status).toBe(422);
      expect(res.body.error.message).toBe("Unprocessable Entity! Field 'body.entries[1].role_id' names something of another guild.");
      expect(ran).toBe(1);
      // Shape and rules answer first: the check is not asked.
      expect((await call(handler, event({ body: '{"guild_id": "42", "channel_id": "x", "message_id": "7", "entries": []}' }))).status).toBe(400);
      expect(seen).toHaveLength(2);
    });
  });
});

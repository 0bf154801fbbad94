import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { type RouteFamily, familyEndpoint, rowsOf } from '#shared/http/route-family.js';
import type { RouteSpec } from '#shared/http/route.js';
import { snowflake } from '#shared/http/schemas.js';
import { lambdaContext } from '#infra/local/lambda-context.js';

const COLOURS = ['red', 'blue'] as const;

/** A family of two routes whose specs count how often they are built. */
function colours() {
  const built: string[] = [];
  const family = {
    members: COLOURS,
    row: (colour) => ({ id: `test.${colour}`, method: 'POST', path: `/modules/polls/${colour}`, access: 'internal', summary: `Paint ${colour}` }),
    spec: (colour) => {
      built.push(colour);
      return { body: z.object({ guild_id: snowflake, [colour]: z.int() }), actor: 'optional' as const };
    },
  } satisfies RouteFamily<(typeof COLOURS)[number]>;
  return { family, built };
}

function event(method: string, resource: string, body: string): APIGatewayProxyEvent {
  return {
    resource,
    path: resource,
    httpMethod: method,
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: { authorizer: { caller: 'service' } },
  } as unknown as APIGatewayProxyEvent;
}

describe('a route family', () => {
  it("lists one row per member, and builds a row's schemas only when one is first read, once", () => {
    const { family, built } = colours();
    expect(rowsOf(family).map((row) => [row.id, row.method, row.path, row.access])).toEqual([
      ['test.red', 'POST', '/modules/polls/red', 'internal'],
      ['test.blue', 'POST', '/modules/polls/blue', 'internal'],
    ]);
    expect(built).toEqual([]);
    const row = rowsOf(family)[1]!;
    expect([row.actor, (row as RouteSpec).query]).toEqual(['optional', undefined]);
    expect(row.body).toBeDefined();
    expect(built).toEqual(['blue']);
  });

  it("serves each row with its member's use case and its own schemas, and answers 404 for a route it does not serve", async () => {
    const { family, built } = colours();
    const handler = familyEndpoint(family, (colour) => ({ body }) => ({ message: `${colour} ${JSON.stringify(body)}` }));
    const call = async (method: string, resource: string, body: string) => {
      const result = await handler(event(method, resource, body), lambdaContext('test'));
      return { status: result.statusCode, body: JSON.parse(result.body) };
    };
    expect(await call('POST', '/modules/polls/blue', '{"guild_id": "42", "blue": 3}')).toEqual({
      status: 200,
      body: { success: true, data: { message: 'blue {"guild_id":"42","blue":3}' } },
    });
    // The red row validates with its own schema: a body without `red` is refused.
    expect((await call('POST', '/modules/polls/red', '{"guild_id": "42", "blue": 3}')).status).toBe(400);
    const unknown = await call('PUT', '/modules/polls/blue', '{"guild_id": "42", "blue": 3}');
    expect([unknown.status, unknown.body.success]).toEqual([404, false]);
    expect(built).toEqual(['blue', 'red']);
  });
});

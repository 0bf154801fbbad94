import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { contextOf } from '#shared/auth/caller.js';
import { endpoint } from '#shared/http/endpoint.js';
import { snowflake } from '#shared/http/schemas.js';

/** Behaviour §19: the acting member of a session's call is the member signed in, never a header the browser sets. */
const row = { id: 'test.actor', body: z.object({ guild_id: snowflake }), actor: 'optional' as const };
const seen: (string | null)[] = [];
const handler = endpoint(row, ({ actor }) => (seen.push(actor), {}));

const call = (caller: Parameters<typeof contextOf>[0], header: string | undefined) =>
  handler(
    {
      httpMethod: 'POST',
      resource: '/modules/polls/test',
      path: '/modules/polls/test',
      headers: { 'content-type': 'application/json', ...(header ? { 'X-Acting-User-Id': header } : {}) },
      body: JSON.stringify({ guild_id: '123456789012345678' }),
      isBase64Encoded: false,
      requestContext: { authorizer: contextOf(caller) },
    } as unknown as APIGatewayProxyEvent,
    { awsRequestId: 'session-actor' } as Context,
  );

describe("a session's acting member", () => {
  it('is the session member whatever X-Acting-User-Id says; the service token still names its own', async () => {
    const session = { kind: 'session' as const, sessionId: 's', userId: '323456789012345678', guildIds: ['123456789012345678'] };
    expect((await call(session, '423456789012345678')).statusCode).toBe(200);
    expect((await call(session, undefined)).statusCode).toBe(200);
    expect((await call({ kind: 'service' }, '423456789012345678')).statusCode).toBe(200);
    expect(seen).toEqual(['323456789012345678', '323456789012345678', '423456789012345678']);
  });

  it('is refused in a guild the session may not act in, before the use case', async () => {
    const session = { kind: 'session' as const, sessionId: 's', userId: '323456789012345678', guildIds: ['999999999999999999'] };
    const before = seen.length;
    expect((await call(session, undefined)).statusCode).toBe(403);
    expect(seen.length).toBe(before);
  });
});

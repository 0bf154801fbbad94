import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as readyz } from '#functions/health/readyz.js';
import { handler as status } from '#functions/module-state/status.js';
import { resetDb } from '#shared/db/client.js';
import { lambdaContext } from '#infra/local/lambda-context.js';

const event = (resource: string, query: Record<string, string> | null = null) =>
  ({
    resource,
    path: resource,
    httpMethod: 'GET',
    headers: {},
    queryStringParameters: query,
    requestContext: { authorizer: { caller: 'service' } },
  }) as unknown as APIGatewayProxyEvent;

describe('an unreachable table', () => {
  beforeAll(() => {
    // Port 9 (discard) on loopback: nothing listens, every connection is refused.
    process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:9';
    process.env.TABLE_NAME = 'absent';
    resetDb();
  });
  afterAll(() => resetDb());

  it('makes /readyz answer 503 DatabaseError with Retry-After', async () => {
    const res = await readyz(event('/readyz'), lambdaContext('readyz'));
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body).error).toEqual({ code: 503, name: 'DatabaseError', message: "Database Error! The table 'absent' is not reachable." });
    expect(res.headers?.['Retry-After']).toBe('5');
  });

  it('makes an operation answer 503 DatabaseError, not 500', async () => {
    const res = await status(event('/modules/polls/status', { guild_id: '1' }), lambdaContext('status'));
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body).error.name).toBe('DatabaseError');
  });
});

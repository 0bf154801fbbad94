import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { endpoint } from '#shared/http/endpoint.js';
import { snowflake } from '#shared/http/schemas.js';

/** A request as API Gateway hands a vote to its function, and two endpoints answering it: the request log's tests share them. */
export const GUILD = '123456789012345678';
export const MEMBER = '223456789012345678';

export function event(body: unknown, headers: Record<string, string> = {}): APIGatewayProxyEvent {
  return {
    resource: '/modules/polls/entry/vote',
    path: '/modules/polls/entry/vote',
    httpMethod: 'POST',
    headers,
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { authorizer: { caller: 'service' }, operationName: 'polls.vote' },
  } as unknown as APIGatewayProxyEvent;
}

const Body = z.object({ guild_id: snowflake });
export const ok = endpoint({ id: 'test.endpoint', body: Body, actor: 'required' }, () => ({ done: true }));
export const broken = endpoint({ id: 'test.endpoint', body: Body }, () => {
  throw new Error('something internal broke');
});

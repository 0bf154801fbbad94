/**
 * A use case's answer is typed by its row's `response` schema: `tsc --noEmit`
 * (part of `npm test`) checks this file, so each `@ts-expect-error` below
 * fails the build if the answer it marks ever compiles again.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { endpoint } from '#shared/http/endpoint.js';
import { RawBody } from '#shared/http/envelope.js';
import { route } from '#shared/http/route.js';
import { lambdaContext } from '#infra/local/lambda-context.js';

const countRow = route({
  id: 'test.count',
  method: 'GET',
  path: '/test/count',
  access: 'public',
  summary: 'A count',
  response: z.object({ count: z.int() }),
});

const pageRow = route({
  id: 'test.page',
  method: 'GET',
  path: '/test/page',
  access: 'public',
  summary: 'A page',
  response: { contentType: 'text/html', description: 'A page' },
});

const event = { resource: '/test/count', path: '/test/count', httpMethod: 'GET', headers: {}, requestContext: {} } as unknown as APIGatewayProxyEvent;

describe("a use case's answer", () => {
  it("compiles and is answered when it is the row's response", async () => {
    const handler = endpoint(countRow, async () => ({ count: 3 }));
    const result = await handler(event, lambdaContext('test'));
    expect([result.statusCode, JSON.parse(result.body).data]).toEqual([200, { count: 3 }]);
  });

  it("does not compile when it is not the row's response", () => {
    const built = [
      // @ts-expect-error `total` for a row answering `count`.
      endpoint(countRow, () => ({ total: 3 })),
      // @ts-expect-error the count as a string.
      endpoint(countRow, async () => ({ count: '3' })),
      // @ts-expect-error the JSON envelope for a row answering a page.
      endpoint(pageRow, () => ({ count: 3 })),
      endpoint(pageRow, () => new RawBody('text/html', '<p>3</p>')),
    ];
    expect(built.every((handler) => typeof handler === 'function')).toBe(true);
  });
});

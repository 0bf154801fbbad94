/**
 * A use case's answer is typed by the answer its row's id names
 * (shared/http/answers.ts): `tsc --noEmit`
 * (part of `npm test`) checks this file, so each `@ts-expect-error` below
 * fails the build if the answer it marks ever compiles again.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { endpoint } from '#shared/http/endpoint.js';
import { RawBody } from '#shared/http/envelope.js';
import type { Route } from '#shared/http/route.js';
import { lambdaContext } from '#infra/local/lambda-context.js';

const countRow = { id: 'test.count', method: 'GET', path: '/test/count', access: 'public', summary: 'A count' } as const satisfies Route;
const pageRow = { id: 'test.page', method: 'GET', path: '/test/page', access: 'public', summary: 'A page' } as const satisfies Route;
/** A row whose id has no answer: its use case may answer any object. */
const unansweredRow = { id: 'test.unanswered', method: 'GET', path: '/test/unanswered', access: 'public', summary: 'No answer' } as const satisfies Route;

const answers = {
  'test.count': z.object({ count: z.int() }),
  'test.page': { contentType: 'text/html', description: 'A page' },
} as const;
type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}

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
      endpoint(unansweredRow, () => ({ total: 3 })),
    ];
    expect(built.every((handler) => typeof handler === 'function')).toBe(true);
  });
});

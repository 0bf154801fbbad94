import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { resetDb } from '#shared/db/client.js';
import { badRequest } from '#shared/errors.js';
import { loadHandler, loadSpec } from '#shared/http/load-handler.js';
import { jsonText, sampleRequest } from '../helpers/schema-samples.js';

/**
 * `Idempotency-Key` by construction (behaviour §16), over every route of
 * the route table: each POST, PUT and DELETE reads the header in the
 * endpoint factory and refuses a malformed one with a 400 naming it,
 * before any store call (these calls have no table to reach: a store call
 * would be a 500 or a 503); a GET never reads it.
 */
// Nothing here may leave the machine, whatever a route would do past its checks: the table and the platform are a closed loopback port.
Object.assign(process.env, { DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', AWS_REGION: 'local', PLATFORM_API_BASE_URL: 'http://127.0.0.1:9/api/v10' });
resetDb();

const mutating = routes.filter((route) => route.method !== 'GET');
const reads = routes.filter((route) => route.method === 'GET');

async function answer(route: (typeof routes)[number], key: string) {
  const spec = await loadSpec(route);
  const handler = await loadHandler(route);
  const request = sampleRequest(spec);
  const event = {
    httpMethod: route.method,
    resource: route.path,
    path: route.path,
    headers: { 'content-type': 'application/json', 'x-acting-user-id': '223456789012345678', 'Idempotency-Key': key },
    pathParameters: Object.keys(request.path).length ? request.path : null,
    queryStringParameters: Object.keys(request.query).length ? request.query : null,
    body: request.body === undefined ? null : jsonText(request.body),
    isBase64Encoded: false,
    requestContext: { authorizer: route.access === 'public' ? null : { caller: 'service' } },
  } as unknown as APIGatewayProxyEvent;
  return handler(event, { awsRequestId: 'idempotency-routes', getRemainingTimeInMillis: () => 1000 } as Context);
}

describe('Idempotency-Key on every route', () => {
  it('covers every mutating route of the table', () => {
    expect(mutating.length).toBeGreaterThan(150);
    expect(mutating.map((r) => r.id)).toEqual(expect.arrayContaining(['polls.vote', 'tags.send-entry', 'giveaways.create-entry', 'verifier.web-verify']));
  });

  it.each(mutating.map((route) => [`${route.method} ${route.id}`, route] as const))('%s: a malformed key is a 400 naming the header', async (_id, route) => {
    const result = await answer(route, 'not a key');
    const page = (await loadSpec(route)).errorPage;
    // A route answering pages (the verifier's link) answers a 400 with its page of a 400; every other with the envelope.
    if (page) {
      const refused = page(badRequest('the key')).response();
      expect([result.statusCode, result.headers?.['content-type']]).toEqual([refused.statusCode, refused.headers?.['content-type']]);
      // The verifier's page says the link is wrong whatever the reason; the dashboard's shows the refusal itself.
      if (result.body !== refused.body) expect(result.body).toContain('Idempotency-Key');
      return;
    }
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body).error.message).toContain("Header 'Idempotency-Key' must be 1 to 255 characters");
  });

  it.each(reads.slice(0, 40).map((route) => [route.id, route] as const))('%s (GET): the header is not read', async (_id, route) => {
    const result = await answer(route, 'not a key');
    const message = result.headers?.['content-type']?.toString().startsWith('application/json') ? String(JSON.parse(result.body).error?.message ?? '') : '';
    expect(message).not.toContain('Idempotency-Key');
  });
});

import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, resetDb } from '#shared/db/client.js';
import { observe } from '#test/helpers/observe.js';

/** A DynamoDB endpoint on loopback that throttles every request. */
const server = createServer((req, res) => {
  req.resume();
  res
    .writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' })
    .end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'Rate of requests exceeds' }));
});
let requests = 0;
server.on('request', () => requests++);

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  resetDb();
});
afterAll(() => {
  resetDb();
  server.close();
});

describe('table throttles', () => {
  it('a throttle left after the SDK retries counts once and logs its operation', async () => {
    const seen = observe();
    const error = await db()
      .send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } }))
      .catch((e: unknown) => e);
    seen.stop();
    expect((error as Error).name).toBe('ProvisionedThroughputExceededException');
    expect(requests).toBeGreaterThan(1);
    expect(seen.total('TableThrottles')).toBe(1);
    expect(seen.events('table throttled')).toEqual([
      expect.objectContaining({ level: 'warn', operation: 'GetItemCommand', error: 'ProvisionedThroughputExceededException' }),
    ]);
  });
});

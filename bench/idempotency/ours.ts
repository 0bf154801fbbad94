import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { fingerprintOf, idempotencyKeyOf, keepAnswers, takeKey } from '#shared/http/idempotency.js';

/** The same work behind the service's own Idempotency-Key handling (shared/http/idempotency.ts): take the key, work, keep the answer. */
export const handler = keepAnswers(async (event: APIGatewayProxyEvent, context: Context) => {
  const key = idempotencyKeyOf(event);
  if (key) {
    const replay = await takeKey(context, { scope: 'service', operation: 'bench.work', key }, fingerprintOf(event, null));
    if (replay) return replay;
  }
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: 'G#1', sk: 'MODULE#polls' }, ConsistentRead: true }));
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ success: true, data: { enabled: Boolean(out.Item) } }) };
});

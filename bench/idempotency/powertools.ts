import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';

/**
 * The same work behind Powertools for AWS Lambda's idempotency utility, set
 * up for the service's table (pk/sk, `expires_at`), the key from the header
 * and the body validated as the payload.
 */
const base = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
const client = DynamoDBDocumentClient.from(base);
const persistenceStore = new DynamoDBPersistenceLayer({
  tableName: process.env.TABLE_NAME ?? 'guild-modules',
  keyAttr: 'pk',
  sortKeyAttr: 'sk',
  expiryAttr: 'expires_at',
  awsSdkV3Client: base,
});
const config = new IdempotencyConfig({ eventKeyJmesPath: 'headers."Idempotency-Key"', payloadValidationJmesPath: 'body', expiresAfterSeconds: 86_400 });

export const handler = makeIdempotent(
  async (_event: { headers: Record<string, string>; body: string }) => {
    const out = await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'G#1', sk: 'MODULE#polls' }, ConsistentRead: true }));
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ success: true, data: { enabled: Boolean(out.Item) } }) };
  },
  { persistenceStore, config },
);

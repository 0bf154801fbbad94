import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/** The baseline: the work alone (one consistent GetItem), no key. */
const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT }));

export const handler = async (_event: { headers: Record<string, string>; body: string }) => {
  const out = await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'G#1', sk: 'MODULE#polls' }, ConsistentRead: true }));
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ success: true, data: { enabled: Boolean(out.Item) } }) };
};

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The SDK floor: the leanest correct Lambda that reads one item. The bench
 * builds it with the functions, in the same build, and compares every
 * function's cold request with its own (bench/floor-kinds.ts is the floor
 * of a function making other requests).
 */
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { guild_id?: string }) => {
  const out = await client.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `G#${event.guild_id ?? '0'}`, sk: 'MODULE#polls' }, ConsistentRead: true }),
  );
  return { statusCode: 200, body: JSON.stringify({ success: true, data: { enabled: out.Item?.enabled ?? false } }) };
};

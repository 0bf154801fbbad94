import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The SDK floor: the leanest correct Lambda that reads one item. The bench
 * builds it with the functions, in the same build, and compares every
 * function's cold request with its own. Given `reads`, it reads that many
 * times in turn: the floor of a function that makes as many requests.
 */
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { guild_id?: string; reads?: number }) => {
  let enabled = false;
  for (let i = 0; i < (event.reads ?? 1); i++) {
    const out = await client.send(
      new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `G#${event.guild_id ?? '0'}`, sk: 'MODULE#polls' }, ConsistentRead: true }),
    );
    enabled = out.Item?.enabled ?? false;
  }
  return { statusCode: 200, body: JSON.stringify({ success: true, data: { enabled } }) };
};

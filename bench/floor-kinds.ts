import { createRequire } from 'node:module';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';

/**
 * The per-count floor of the cold bench: the leanest correct Lambda making
 * the requests a function makes, of the same kinds, in the same order
 * (`requests`: DynamoDB operation names as they go on the wire, and
 * `platform <METHOD>` for a platform call). Built like the SDK floor
 * (bench/floor.ts, the same client and settings, in the same build), it
 * sets what a function's requests cost by themselves, first uses of each
 * kind included: a cold client's first UpdateItem or BatchGetItem costs
 * more than another GetItem. Table requests act on the floor's own items
 * in the request's guild; a platform call is one HTTPS request with a JSON
 * body to the platform base, its answer read and parsed, as the service's
 * client does (node:https, which the SDK has loaded).
 */
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const load = createRequire(import.meta.url) as (id: 'node:http' | 'node:https') => typeof import('node:https');

function platformCall(method: string): Promise<unknown> {
  const url = new URL(`${process.env.PLATFORM_API_BASE_URL}/users/@me`);
  const body = method === 'GET' ? undefined : JSON.stringify({ content: 'floor' });
  return new Promise((resolve, reject) => {
    const req = load(url.protocol === 'https:' ? 'node:https' : 'node:http').request(
      url,
      { method, headers: { authorization: `Bot ${process.env.PLATFORM_BOT_TOKEN}`, 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve(text ? JSON.parse(text) : null);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export const handler = async (event: { guild_id?: string; requests?: string[] }) => {
  const TableName = process.env.TABLE_NAME;
  const pk = `FLOOR#${event.guild_id ?? '0'}`;
  let n = 0;
  for (const kind of event.requests ?? []) {
    const Key = { pk, sk: String(++n) };
    switch (kind) {
      case 'BatchGetItem':
        await client.send(new BatchGetCommand({ RequestItems: { [TableName!]: { Keys: [Key, { pk, sk: 'other' }], ConsistentRead: true } } }));
        break;
      case 'Query':
        await client.send(new QueryCommand({ TableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, Limit: 25 }));
        break;
      case 'PutItem':
        await client.send(new PutCommand({ TableName, Item: { ...Key, at: Date.now() }, ConditionExpression: 'attribute_not_exists(pk)' }));
        break;
      case 'UpdateItem':
        await client.send(
          new UpdateCommand({
            TableName,
            Key,
            UpdateExpression: 'ADD #n :one',
            ExpressionAttributeNames: { '#n': 'n' },
            ExpressionAttributeValues: { ':one': 1 },
          }),
        );
        break;
      case 'DeleteItem':
        await client.send(new DeleteCommand({ TableName, Key }));
        break;
      case 'TransactWriteItems':
        // Two items, as the service's transactions write (an entrant or voter item and the count it moves).
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName, Item: { ...Key, at: Date.now() }, ConditionExpression: 'attribute_not_exists(pk)' } },
              {
                Update: {
                  TableName,
                  Key: { pk, sk: 'count' },
                  UpdateExpression: 'ADD #n :one',
                  ExpressionAttributeNames: { '#n': 'n' },
                  ExpressionAttributeValues: { ':one': 1 },
                },
              },
            ],
          }),
        );
        break;
      case 'BatchWriteItem':
        await client.send(new BatchWriteCommand({ RequestItems: { [TableName!]: [{ PutRequest: { Item: { ...Key, at: Date.now() } } }] } }));
        break;
      default:
        if (kind.startsWith('platform ')) await platformCall(kind.slice('platform '.length));
        else await client.send(new GetCommand({ TableName, Key, ConsistentRead: true }));
    }
  }
  return { statusCode: 200, body: JSON.stringify({ success: true, data: { requests: n } }) };
};

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

let client: DynamoDBDocumentClient | undefined;

/**
 * The one DocumentClient. In AWS it uses the Lambda's region and role; with
 * DYNAMODB_ENDPOINT (local mode, or any DynamoDB-compatible endpoint) it
 * talks there with static local credentials.
 */
export function db(): DynamoDBDocumentClient {
  if (!client) {
    const endpoint = process.env.DYNAMODB_ENDPOINT;
    const base = new DynamoDBClient({
      maxAttempts: 4,
      ...(endpoint ? { endpoint, region: process.env.AWS_REGION || 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    });
    client = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
      unmarshallOptions: { wrapNumbers: false },
    });
  }
  return client;
}

/** Forgets the client so the next call reads the configuration again (local mode restarts, tests). */
export function resetDb(): void {
  client?.destroy();
  client = undefined;
}

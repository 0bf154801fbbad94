import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { emit } from '../observe/emit.js';
import { log } from '../observe/log.js';

/** Counts a throttle the SDK gave up on (after its own retries), whoever called: the `TableThrottles` metric and a warn line. */
function countThrottle(error: unknown, operation: unknown): void {
  // ProvisionedThroughputExceededException, ThrottlingException, RequestLimitExceeded: the table or account over its capacity.
  const name = (error as Error | null)?.name;
  if (!/^(ProvisionedThroughputExceeded|Throttling)Exception$|^RequestLimitExceeded$/.test(name ?? '')) return;
  log('warn', 'table throttled', { operation, error: name });
  emit({ tableThrottles: 1 });
}

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
    // At the initialize step the error seen is the one after the SDK's retries.
    base.middlewareStack.add(
      (next, context) => async (args) => {
        try {
          return await next(args);
        } catch (error) {
          countThrottle(error, context.commandName);
          throw error;
        }
      },
      { step: 'initialize', name: 'countThrottles' },
    );
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

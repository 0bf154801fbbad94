import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { databaseFailed } from '#shared/errors.js';
import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';

/** Ready when one read of the table answers within two seconds. */
export const handler = endpoint(routes.readyz, async () => {
  try {
    await db().send(new GetCommand({ TableName: tableName(), Key: { pk: 'HEALTH', sk: 'HEALTH' } }), {
      abortSignal: AbortSignal.timeout(2000),
    });
  } catch {
    throw databaseFailed(`The table '${tableName()}' is not reachable.`, 5);
  }
  return { status: 'ok' as const };
});

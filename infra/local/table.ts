import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CreateTableCommand, DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { TABLE } from '#shared/db/table.js';

/**
 * The embedded table: dynalite on a loopback port, on disk under `dataDir`
 * or in memory, in a thread of its own (dynalite-thread.mjs). `close` stops
 * it and waits until its store is closed.
 */
export async function startEmbeddedDynamo(dataDir: string | null): Promise<{ endpoint: string; close(): Promise<void> }> {
  const thread = new Worker(new URL('./dynalite-thread.mjs', import.meta.url), { workerData: { path: dataDir ? join(dataDir, 'table') : null } });
  const [{ port }] = (await once(thread, 'message')) as [{ port: number }];
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async close() {
      const exited = once(thread, 'exit');
      thread.postMessage('close');
      await exited;
    },
  };
}

/** Creates the table from the one definition CDK also uses, unless it exists. */
export async function ensureTable(endpoint: string, name: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const keys = [TABLE.partitionKey, TABLE.sortKey, ...TABLE.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  try {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...new Set(keys)].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE.indexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  } finally {
    client.destroy();
  }
}

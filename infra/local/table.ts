import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CreateTableCommand, DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { TABLE } from '#shared/db/table.js';
import { startDynamoDbLocal } from './dynamodb-local.js';

/** The embedded tables local mode can run (`LOCAL_DYNAMODB`). */
const EMBEDDED = ['dynalite', 'dynamodb-local'] as const;
export type EmbeddedDynamo = (typeof EMBEDDED)[number];

/** `LOCAL_DYNAMODB` as an embedded table: dynalite when unset; anything else named is refused. */
export function parseEmbeddedDynamo(value: string | undefined): EmbeddedDynamo {
  if (!value) return 'dynalite';
  if ((EMBEDDED as readonly string[]).includes(value)) return value as EmbeddedDynamo;
  throw new Error(`LOCAL_DYNAMODB is "${value}": it must be one of ${EMBEDDED.join(', ')} (or unset, for dynalite)`);
}

/**
 * The embedded table on a loopback port, on disk under `dataDir` or in
 * memory: dynalite in a thread of its own (dynalite-thread.mjs, with local
 * mode's own transactions), or Amazon's DynamoDB Local in a JVM
 * (dynamodb-local.ts, with its native transactions). `close` stops it and
 * waits until its store is closed.
 */
export async function startEmbeddedDynamo(dataDir: string | null, kind: EmbeddedDynamo = 'dynalite'): Promise<{ endpoint: string; close(): Promise<void> }> {
  if (kind === 'dynamodb-local') {
    const dbPath = dataDir ? join(dataDir, 'dynamodb-local') : null;
    if (dbPath) mkdirSync(dbPath, { recursive: true });
    return startDynamoDbLocal(dbPath);
  }
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

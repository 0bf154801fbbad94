/**
 * Local mode's embedded tables: LOCAL_DYNAMODB picks dynalite or Amazon's
 * DynamoDB Local, and DynamoDB Local answers transactions itself (actions
 * dynalite's local transaction layer refuses).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, GetItemCommand, PutItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable, parseEmbeddedDynamo, startEmbeddedDynamo } from '#infra/local/table.js';

const hasJava = spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
const client = (endpoint: string) =>
  new DynamoDBClient({ endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'someoneElse', secretAccessKey: 'x' }, maxAttempts: 1 });

/** A transaction with a ConditionCheck action, which dynalite's local layer does not answer. */
async function checkAndPut(endpoint: string, table: string): Promise<string | undefined> {
  const db = client(endpoint);
  try {
    await db.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'g' }, sk: { S: 'count' }, n: { N: '1' } } }));
    await db.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: table,
              Key: { pk: { S: 'g' }, sk: { S: 'count' } },
              ConditionExpression: 'n = :one',
              ExpressionAttributeValues: { ':one': { N: '1' } },
            },
          },
          { Put: { TableName: table, Item: { pk: { S: 'g' }, sk: { S: 'entry' } } } },
        ],
      }),
    );
    return (await db.send(new GetItemCommand({ TableName: table, Key: { pk: { S: 'g' }, sk: { S: 'entry' } } }))).Item?.sk?.S;
  } finally {
    db.destroy();
  }
}

/** A transaction that puts and deletes one item: DynamoDB refuses it whole. */
async function sameItemTwice(endpoint: string, table: string): Promise<unknown> {
  const db = client(endpoint);
  const key = { pk: { S: 'g' }, sk: { S: 'twice' } };
  try {
    await db.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: table, Item: key } }, { Delete: { TableName: table, Key: key } }] }));
    return 'accepted';
  } catch (error) {
    const item = (await db.send(new GetItemCommand({ TableName: table, Key: key }))).Item;
    return { name: (error as Error).name, message: (error as Error).message, item };
  } finally {
    db.destroy();
  }
}

const REFUSED_TWICE = { name: 'ValidationException', message: 'Transaction request cannot include multiple operations on one item', item: undefined };

describe('LOCAL_DYNAMODB', () => {
  it('is dynalite when unset, and refuses a name it does not know, saying which it takes', () => {
    expect(parseEmbeddedDynamo(undefined)).toBe('dynalite');
    expect(parseEmbeddedDynamo('')).toBe('dynalite');
    expect(parseEmbeddedDynamo('dynamodb-local')).toBe('dynamodb-local');
    expect(() => parseEmbeddedDynamo('dynamodb')).toThrow('LOCAL_DYNAMODB is "dynamodb": it must be one of dynalite, dynamodb-local (or unset, for dynalite)');
  });

  it('dynalite: its local transaction layer answers Put, Update and Delete actions only, and refuses one item named twice as DynamoDB does', async () => {
    const dynamo = await startEmbeddedDynamo(null);
    try {
      await ensureTable(dynamo.endpoint, 'local-table');
      await expect(checkAndPut(dynamo.endpoint, 'local-table')).rejects.toThrow(/Put, Update and Delete actions only/);
      expect(await sameItemTwice(dynamo.endpoint, 'local-table')).toEqual(REFUSED_TWICE);
    } finally {
      await dynamo.close();
    }
  });

  it.skipIf(!hasJava)(
    "dynamodb-local: Amazon's DynamoDB Local, one database whatever the region, with its own transactions, kept on disk across a restart",
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'ddb-local-'));
      try {
        const first = await startEmbeddedDynamo(dataDir, 'dynamodb-local');
        await ensureTable(first.endpoint, 'local-table');
        // Created in region 'local' by ensureTable, read here from another region and key: one shared database.
        expect(await checkAndPut(first.endpoint, 'local-table')).toBe('entry');
        expect(await sameItemTwice(first.endpoint, 'local-table')).toEqual(REFUSED_TWICE);
        await first.close();
        expect(readdirSync(join(dataDir, 'dynamodb-local')).some((f) => f.endsWith('.db'))).toBe(true);

        const second = await startEmbeddedDynamo(dataDir, 'dynamodb-local');
        const db = client(second.endpoint);
        const kept = await db.send(new GetItemCommand({ TableName: 'local-table', Key: { pk: { S: 'g' }, sk: { S: 'entry' } } }));
        db.destroy();
        await second.close();
        expect(kept.Item?.sk?.S).toBe('entry');
        // Closed means gone: nothing answers on its port any more.
        await expect(fetch(second.endpoint, { method: 'POST' })).rejects.toThrow();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

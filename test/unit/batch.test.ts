import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { deleteKeys, getKeys, getNamed } from '#shared/db/batch.js';
import { AppError } from '#shared/errors.js';

const dynamo = mockClient(DynamoDBDocumentClient);
const TABLE = 'guild-modules';
const key = (n: number) => ({ pk: `P#${n}`, sk: 'S' });

beforeEach(() => {
  dynamo.reset();
  process.env.TABLE_NAME = TABLE;
});

describe('batch deletes and reads', () => {
  it('deletes in batches of 25 and asks again for what the table left unprocessed', async () => {
    dynamo
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { [TABLE]: [{ DeleteRequest: { Key: key(3) } }] } })
      .resolves({});
    await deleteKeys(Array.from({ length: 30 }, (_, i) => key(i)));
    const sent = dynamo.commandCalls(BatchWriteCommand).map((c) => c.args[0].input.RequestItems![TABLE]!.map((r) => r.DeleteRequest!.Key!.pk));
    expect(sent.map((batch) => batch.length)).toEqual([25, 5, 1]);
    expect(sent[2]).toEqual(['P#3']);
    expect(new Set(sent.flat()).size).toBe(30);
  });

  it('sends a large delete eight batches at a time, every key once', async () => {
    let inFlight = 0;
    let most = 0;
    dynamo.on(BatchWriteCommand).callsFake(async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return {};
    });
    await deleteKeys(Array.from({ length: 1000 }, (_, i) => key(i)));
    const sent = dynamo.commandCalls(BatchWriteCommand).flatMap((c) => c.args[0].input.RequestItems![TABLE]!.map((r) => r.DeleteRequest!.Key!.pk));
    expect(sent).toHaveLength(1000);
    expect(new Set(sent).size).toBe(1000);
    expect(most).toBe(8);
  });

  it('answers 503 DatabaseError when the table keeps refusing, instead of dropping items silently', async () => {
    dynamo.on(BatchWriteCommand).resolves({ UnprocessedItems: { [TABLE]: [{ DeleteRequest: { Key: key(1) } }] } });
    const error = await deleteKeys([key(1)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(503);
    expect((error as AppError).errorName).toBe('DatabaseError');
  });

  it('reads consistently, in batches of 100, including keys first left unprocessed', async () => {
    dynamo
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { [TABLE]: [{ ...key(1), v: 1 }] }, UnprocessedKeys: { [TABLE]: { Keys: [key(2)] } } })
      .resolves({ Responses: { [TABLE]: [{ ...key(2), v: 2 }] } });
    const items = await getKeys([key(1), key(2)]);
    expect(items).toEqual([
      { ...key(1), v: 1 },
      { ...key(2), v: 2 },
    ]);
    expect(dynamo.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems![TABLE]!.ConsistentRead).toBe(true);
  });

  it('answers named keys from one consistent batch read: each name its item, or null when absent, whatever order the table answers in', async () => {
    dynamo.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE]: [
          { ...key(3), v: 3 },
          { pk: 'P#1', sk: 'T', v: 1 },
        ],
      },
    });
    const found = await getNamed({ state: { pk: 'P#1', sk: 'S' }, other: { pk: 'P#1', sk: 'T' }, third: key(3) });
    expect(found).toEqual({ state: null, other: { pk: 'P#1', sk: 'T', v: 1 }, third: { ...key(3), v: 3 } });
    const calls = dynamo.commandCalls(BatchGetCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input.RequestItems![TABLE]).toEqual({ Keys: [{ pk: 'P#1', sk: 'S' }, { pk: 'P#1', sk: 'T' }, key(3)], ConsistentRead: true });
  });
});

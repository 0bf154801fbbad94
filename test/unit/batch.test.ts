import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { deleteKeys, getKeys } from '../../shared/db/batch.js';
import { AppError } from '../../shared/errors.js';

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
    const sent = dynamo.commandCalls(BatchWriteCommand).map((c) => c.args[0].input.RequestItems![TABLE]!.length);
    expect(sent).toEqual([25, 1, 5]);
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
    expect(items).toEqual([{ ...key(1), v: 1 }, { ...key(2), v: 2 }]);
    expect(dynamo.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems![TABLE]!.ConsistentRead).toBe(true);
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordIdAhead } from '#shared/db/record-ids.js';

const dynamo = mockClient(DynamoDBDocumentClient);

beforeEach(() => {
  dynamo.reset();
  process.env.TABLE_NAME = 'guild-modules';
});

/**
 * A create takes its record id beside its checks: the counter write goes out
 * when asked for, not when the record is built, and a create refused before
 * it awaits the id leaves no rejection behind.
 */
describe('a record id taken ahead', () => {
  it('sends the counter write at once, and answers the id of the value it got', async () => {
    dynamo.on(UpdateCommand).resolves({ Attributes: { n: 3 } });
    const id = recordIdAhead('tests.ahead');
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(1);
    const shard = Number(String(dynamo.commandCalls(UpdateCommand)[0]!.args[0].input.Key!.sk).replace('SHARD#', ''));
    expect(await id).toBe(2 * 8 + shard + 1);
  });

  it('leaves a failed write unhandled nowhere, and throws it where the id is awaited', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      dynamo.on(UpdateCommand).rejects(new Error('table unreachable'));
      const id = recordIdAhead('tests.ahead');
      await sleep(20);
      expect(unhandled).toEqual([]);
      await expect(id).rejects.toThrow('table unreachable');
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it("from the process's block: one write for the block, then ids without a request", async () => {
    dynamo.on(UpdateCommand).resolves({ Attributes: { n: 100 } });
    const first = await recordIdAhead('tests.block', true);
    const second = await recordIdAhead('tests.block', true);
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(1);
    expect(second - first).toBe(8);
  });
});

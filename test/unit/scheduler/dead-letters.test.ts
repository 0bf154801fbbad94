import { ChangeMessageVisibilityBatchCommand, DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { sqsDeadLetters } from '#shared/scheduler/dead-letters.js';
import { deadLetterUrlEnvName } from '#shared/scheduler/queue-env.js';

const sqs = mockClient(SQSClient);
const URL = 'https://sqs.eu-west-1.amazonaws.com/000000000000/polls-close-dlq';
const message = (n: number, key: string) => ({ MessageId: `m${n}`, ReceiptHandle: `r${n}`, Body: JSON.stringify({ job: 'polls.close', key, due_at: 1 }) });

beforeEach(() => {
  sqs.reset();
  process.env[deadLetterUrlEnvName('polls.close')] = URL;
});
afterAll(() => {
  delete process.env[deadLetterUrlEnvName('polls.close')];
});

describe('taking replayed work off an SQS dead-letter queue', () => {
  it('deletes the messages naming the replayed keys and makes the others visible again at once', async () => {
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: [message(1, 'g#a'), message(2, 'g#b'), { MessageId: 'm3', ReceiptHandle: 'r3', Body: 'not json' }] })
      .resolvesOnce({ Messages: [message(4, 'g#a')] })
      .resolves({});
    sqs.on(DeleteMessageBatchCommand).callsFake(async (input) => ({ Successful: input.Entries.map((e: { Id: string }) => ({ Id: e.Id })), Failed: [] }));
    sqs.on(ChangeMessageVisibilityBatchCommand).resolves({ Successful: [], Failed: [] });

    expect(await sqsDeadLetters.drop('polls.close', new Set(['g#a']))).toBe(2);

    const receives = sqs.commandCalls(ReceiveMessageCommand).map((c) => c.args[0].input);
    expect(receives).toHaveLength(3);
    // Each batch stays hidden while the rest is read, so no message is seen twice.
    for (const r of receives) expect(r).toMatchObject({ QueueUrl: URL, MaxNumberOfMessages: 10 });
    expect(receives[0]!.VisibilityTimeout).toBeGreaterThan(0);
    const deleted = sqs.commandCalls(DeleteMessageBatchCommand).flatMap((c) => c.args[0].input.Entries!.map((e) => e.ReceiptHandle));
    expect(deleted).toEqual(['r1', 'r4']);
    const shown = sqs.commandCalls(ChangeMessageVisibilityBatchCommand).flatMap((c) => c.args[0].input.Entries!);
    expect(shown.map((e) => [e.ReceiptHandle, e.VisibilityTimeout])).toEqual([
      ['r2', 0],
      ['r3', 0],
    ]);
  });

  it("leaves another job's message with the same key on a shared dead-letter queue", async () => {
    const other = { MessageId: 'm5', ReceiptHandle: 'r5', Body: JSON.stringify({ job: 'polls.refresh', key: 'g#a', due_at: 1 }) };
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: [message(1, 'g#a'), other] })
      .resolves({});
    sqs.on(DeleteMessageBatchCommand).callsFake(async (input) => ({ Successful: input.Entries.map((e: { Id: string }) => ({ Id: e.Id })), Failed: [] }));
    sqs.on(ChangeMessageVisibilityBatchCommand).resolves({ Successful: [], Failed: [] });

    expect(await sqsDeadLetters.drop('polls.close', new Set(['g#a']))).toBe(1);
    expect(sqs.commandCalls(DeleteMessageBatchCommand).flatMap((c) => c.args[0].input.Entries!.map((e) => e.ReceiptHandle))).toEqual(['r1']);
    expect(sqs.commandCalls(ChangeMessageVisibilityBatchCommand).flatMap((c) => c.args[0].input.Entries!.map((e) => e.ReceiptHandle))).toEqual(['r5']);
  });

  it('does nothing for a job whose dead-letter queue it was not told', async () => {
    expect(await sqsDeadLetters.drop('polls.unknown', new Set(['g#a']))).toBe(0);
    expect(sqs.calls()).toHaveLength(0);
  });
});

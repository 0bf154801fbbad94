import { ChangeMessageVisibilityBatchCommand, DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { deadLetterUrlEnvName } from './queue-env.js';

/**
 * The dead-letter queues of the jobs, as replaying parked work needs them.
 * A dead-letter message only names its item (`{job, key, due_at}`); the
 * item in the table is the record of parked work (its last error, its
 * attempts), and replaying brings that item back. What is left to do here
 * is to take the replayed item's messages off its dead-letter queue, so the
 * queue, and its alarm, show only what is still parked. In AWS: SQS, at the
 * URL CDK puts in `DLQ_URL_<JOB>`; local mode injects its in-process queues
 * with {@link setDeadLetters}.
 */
export interface DeadLetters {
  /** Deletes the job's dead-letter messages naming one of `keys`; answers how many. */
  drop(jobId: string, keys: ReadonlySet<string>): Promise<number>;
}

/** The work key a dead-letter message names, or null for one that is not due work. */
export function keyOfMessage(body: string | undefined): string | null {
  try {
    const parsed = JSON.parse(body ?? '') as { key?: unknown };
    return typeof parsed.key === 'string' ? parsed.key : null;
  } catch {
    return null;
  }
}

/** The job a dead-letter message names, or null for one that is not due work (jobs share queues: a key alone names no item). */
export function jobOfMessage(body: string | undefined): string | null {
  try {
    const parsed = JSON.parse(body ?? '') as { job?: unknown };
    return typeof parsed.job === 'string' ? parsed.job : null;
  } catch {
    return null;
  }
}

/** Receives past this many batches of ten are left for the next replay (a queue that large is drained by the console's redrive). */
const MAX_RECEIVES = 100;
/** How long a message looked at stays hidden while the rest of the queue is read (set back to 0 after). */
const LOOK_SECONDS = 60;

let sqs: SQSClient | undefined;

/**
 * Reads the queue in batches of ten, each hidden while the rest is read,
 * deletes the matching messages, then makes the others visible again at once.
 */
export const sqsDeadLetters: DeadLetters = {
  async drop(jobId, keys) {
    const url = process.env[deadLetterUrlEnvName(jobId)];
    // No queue known (local mode run without jobs): the item is replayed all the same; nothing to take off.
    if (!url) return 0;
    sqs ??= new SQSClient({ maxAttempts: 4 });
    const client = sqs;
    const kept: Message[] = [];
    let dropped = 0;
    for (let i = 0; i < MAX_RECEIVES; i++) {
      const out = await client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: LOOK_SECONDS, WaitTimeSeconds: 0 }));
      const messages = out.Messages ?? [];
      if (messages.length === 0) break;
      // Jobs share a dead-letter queue (`jobQueueOf`), and two jobs may use one key: both must match.
      const named = (m: Message) => jobOfMessage(m.Body) === jobId && keys.has(keyOfMessage(m.Body) ?? '');
      const match = messages.filter(named);
      kept.push(...messages.filter((m) => !named(m)));
      if (match.length > 0) {
        const entries = match.map((m, n) => ({ Id: String(n), ReceiptHandle: m.ReceiptHandle! }));
        const done = await client.send(new DeleteMessageBatchCommand({ QueueUrl: url, Entries: entries }));
        dropped += done.Successful?.length ?? 0;
      }
    }
    for (let from = 0; from < kept.length; from += 10) {
      const entries = kept.slice(from, from + 10).map((m, n) => ({ Id: String(n), ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: 0 }));
      await client.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: url, Entries: entries }));
    }
    return dropped;
  },
};

let injected: DeadLetters | null = null;

/** Replaces the SQS dead-letter queues (local mode); `null` restores them. */
export function setDeadLetters(deadLetters: DeadLetters | null): void {
  injected = deadLetters;
}

/** The dead-letter queues in force. */
export function deadLetters(): DeadLetters {
  return injected ?? sqsDeadLetters;
}

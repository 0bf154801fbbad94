import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { queueUrlEnvName } from './queue-env.js';

/**
 * How due work reaches a job's queue. In AWS: SQS, at the URL CDK puts in
 * `QUEUE_URL_<JOB>`. Local mode injects its in-process queues with
 * {@link setJobSender}; the message body and delay are the same either way.
 */
export interface JobMessageSender {
  /** Whether this sender can reach the job's queue (a function without the queue's URL cannot). */
  canSend(jobId: string): boolean;
  /** Sends one message, delivered after `delaySeconds` (0..900). */
  send(jobId: string, body: string, delaySeconds: number): Promise<void>;
}

export { queueUrlEnvName };

let sqs: SQSClient | undefined;

/** Sends to SQS; the queue URL is read from the environment at each call. */
export const sqsSender: JobMessageSender = {
  canSend: (jobId) => Boolean(process.env[queueUrlEnvName(jobId)]),
  async send(jobId, body, delaySeconds) {
    const url = process.env[queueUrlEnvName(jobId)];
    if (!url) throw new Error(`No queue URL for job ${jobId}: set ${queueUrlEnvName(jobId)}.`);
    sqs ??= new SQSClient({ maxAttempts: 4 });
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, DelaySeconds: delaySeconds }));
  },
};

let injected: JobMessageSender | null = null;

/** Replaces the SQS sender (local mode, tests); `null` restores it. */
export function setJobSender(sender: JobMessageSender | null): void {
  injected = sender;
}

/** The sender in force. */
export function jobSender(): JobMessageSender {
  return injected ?? sqsSender;
}

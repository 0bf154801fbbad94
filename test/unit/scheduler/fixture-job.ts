import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';

/** A job file for the local runner's tests: fails every message whose body says so, hangs for ever on one that says `hang`, records the rest. */
export interface FixtureLog {
  handled: string[];
  deliveries: Record<string, number>;
  produced: unknown[];
}

const log = ((globalThis as { __fixtureJob?: FixtureLog }).__fixtureJob ??= { handled: [], deliveries: {}, produced: [] });

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    log.deliveries[record.body] = Number(record.attributes.ApproximateReceiveCount);
    if (record.body.startsWith('hang')) await new Promise(() => undefined);
    if (record.body.startsWith('fail')) failures.push({ itemIdentifier: record.messageId });
    else log.handled.push(record.body);
  }
  return { batchItemFailures: failures };
}

export async function produce(event?: unknown): Promise<void> {
  log.produced.push(event);
}

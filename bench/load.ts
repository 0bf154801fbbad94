/**
 * Bursts from another thread. A rate bench compares the service in local
 * mode with dynalite's own writes; both bursts come from a worker thread, as
 * a bot's calls come from another machine, so each side is measured without
 * its client's work on its thread. Each burst is preceded by a warm-up the
 * timing leaves out (modules loaded, connections open, code compiled); the
 * caller may wait between the two (`betweenWarmUpAndBurst`), e.g. to let the
 * warm-up's background work settle and start counting.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

export interface HttpRequest {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** HTTP requests to local mode, with its service token. */
export interface HttpBurst {
  kind: 'http';
  baseUrl: string;
  token: string;
  warmUp: HttpRequest[];
  requests: HttpRequest[];
  concurrency: number;
}

/** Puts straight to dynalite, `count` items in one partition, each new (conditional) or not. */
export interface PutBurst {
  kind: 'puts';
  endpoint: string;
  table: string;
  partition: string;
  count: number;
  conditional: boolean;
  concurrency: number;
}

export interface BurstResult {
  /** Wall time of the timed burst, ms (the warm-up left out). */
  ms: number;
  /** Requests per second. */
  rate: number;
  /** The status of each HTTP request, in order (puts: empty). */
  statuses: number[];
}

const WARM_UP_PUTS = 200;

/** Runs `task(i)` for i < total with at most `concurrency` at once; answers the wall time in ms. */
export async function pool(total: number, concurrency: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await task(next++);
    }),
  );
  return performance.now() - started;
}

async function httpBurst(burst: HttpBurst): Promise<BurstResult> {
  const send = async (request: HttpRequest) => {
    const res = await fetch(burst.baseUrl + request.path, {
      method: request.method,
      headers: { authorization: `Bearer ${burst.token}`, 'content-type': 'application/json', ...request.headers },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    await res.arrayBuffer();
    return res.status;
  };
  await pool(burst.warmUp.length, burst.concurrency, async (i) => void (await send(burst.warmUp[i]!)));
  await warmedUp();
  const statuses: number[] = [];
  const ms = await pool(burst.requests.length, burst.concurrency, async (i) => void (statuses[i] = await send(burst.requests[i]!)));
  return { ms, rate: (burst.requests.length / ms) * 1000, statuses };
}

async function putBurst(burst: PutBurst): Promise<BurstResult> {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: burst.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const put = (partition: string, i: number) =>
    client.send(
      new PutCommand({
        TableName: burst.table,
        Item: { pk: partition, sk: `ITEM#${i}`, votes: { '1': 1 }, version: 1 },
        ConditionExpression: burst.conditional ? 'attribute_not_exists(pk)' : undefined,
      }),
    );
  try {
    await pool(WARM_UP_PUTS, burst.concurrency, (i) => put(`${burst.partition}#WARM`, i).then(() => undefined));
    await warmedUp();
    const ms = await pool(burst.count, burst.concurrency, (i) => put(burst.partition, i).then(() => undefined));
    return { ms, rate: (burst.count / ms) * 1000, statuses: [] };
  } finally {
    client.destroy();
  }
}

/** In the worker: tells the main thread the warm-up is done and waits for its go. */
function warmedUp(): Promise<void> {
  return new Promise((resolve) => {
    parentPort!.once('message', () => resolve());
    parentPort!.postMessage('warm');
  });
}

/** Runs the burst in a worker thread and answers its timing. */
export function burstFromWorker(burst: HttpBurst | PutBurst, betweenWarmUpAndBurst: () => Promise<void> | void = () => undefined): Promise<BurstResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: burst });
    worker.on('message', (message: 'warm' | BurstResult) => {
      if (message !== 'warm') return resolve(message);
      Promise.resolve(betweenWarmUpAndBurst()).then(() => worker.postMessage('go'), reject);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`burst worker exited with ${code}`))));
  });
}

if (!isMainThread && parentPort) {
  const burst = workerData as HttpBurst | PutBurst;
  parentPort.postMessage(await (burst.kind === 'http' ? httpBurst(burst) : putBurst(burst)));
}

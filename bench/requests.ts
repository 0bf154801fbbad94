import { AsyncLocalStorage } from 'node:async_hooks';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { lambdaContext } from '#infra/local/lambda-context.js';
import type { LocalService } from '#infra/local/start.js';
import { type Row, median } from './table.js';

/** What a counter saw since it was last taken. */
export interface Counted {
  requests: number;
  /** The scheduler producers' queries of the due index among them: local mode runs them every second whatever the work. */
  dueIndexPolls: number;
  /** Items the queries among them read (`ScannedCount`). */
  itemsRead: number;
}

export interface DynamoCounter {
  /** What was counted since the last take; counting starts again from zero. */
  take(): Counted;
  stop(): void;
}

/**
 * The table requests `work` makes itself, followed through its awaits:
 * what local mode's jobs do meanwhile (producers, consumers of other work)
 * is not counted.
 */
export async function requestsOf(work: () => Promise<unknown>): Promise<number> {
  const mine = new AsyncLocalStorage<true>();
  const counter = countDynamoRequests(() => mine.getStore() === true);
  try {
    await mine.run(true, work);
    return counter.take().requests;
  } finally {
    counter.stop();
  }
}

/** What handlers asked, without the producers' polls of the due index. */
export const handlerRequests = (counted: Counted) => counted.requests - counted.dueIndexPolls;

let counters = 0;

/** Whether a request is a producer's poll of the due index (`DUEIDX#<job>#<shard>`, under whatever value name the entity layer generated). */
export const isDueIndexPoll = (input: { IndexName?: string; ExpressionAttributeValues?: Record<string, unknown> }): boolean =>
  input.IndexName !== undefined && Object.values(input.ExpressionAttributeValues ?? {}).some((value) => String(value).startsWith('DUEIDX#'));

/** Counts the DynamoDB requests this process sends through the service's client (those `only` accepts), from now until `stop()`. */
export function countDynamoRequests(only: () => boolean = () => true): DynamoCounter {
  let counted: Counted = { requests: 0, dueIndexPolls: 0, itemsRead: 0 };
  const name = `benchRequestCounter${++counters}`;
  db().middlewareStack.add(
    (next) => async (args) => {
      if (!only()) return next(args);
      const input = args.input as { IndexName?: string; ExpressionAttributeValues?: Record<string, unknown> };
      counted.requests++;
      if (isDueIndexPoll(input)) counted.dueIndexPolls++;
      const out = await next(args);
      const scanned = (out.output as { ScannedCount?: number }).ScannedCount;
      if (typeof scanned === 'number') counted.itemsRead += scanned;
      return out;
    },
    { step: 'initialize', name },
  );
  return {
    take() {
      const taken = counted;
      counted = { requests: 0, dueIndexPolls: 0, itemsRead: 0 };
      return taken;
    },
    stop: () => void db().middlewareStack.remove(name),
  };
}

/**
 * Distinct 19-digit snowflakes, one per call, from `first` on. Each bench
 * starts from its own `first`, so its IDs never meet another's in the table.
 */
export function snowflakes(first: bigint): () => string {
  let n = 0n;
  return () => (first + ++n * 7919n).toString();
}

/** Sends one request to local mode and answers its status. */
export async function send(service: LocalService, method: string, path: string, body?: unknown, token = service.serviceToken): Promise<number> {
  const res = await fetch(service.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Sends one request to local mode as the service; answers its status and its parsed answer. */
export async function call(
  service: LocalService,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  const res = await fetch(service.url + path, {
    method,
    headers: { authorization: `Bearer ${service.serviceToken}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/** The same for a request that must succeed: answers the envelope's `data`, and throws with the answer otherwise. */
export async function succeed(service: LocalService, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> {
  const { status, json } = await call(service, method, path, body, headers);
  if (status !== 200) throw new Error(`${method} ${path}: ${status} ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * Channels and roles made the guild's on the sandbox platform, as a real
 * guild has them: the service refuses a channel or role a request names that
 * is not the request's guild's (behaviour §13). Untimed set-up.
 */
export async function ofGuild(service: LocalService, guild: string, objects: { channels?: string[]; roles?: string[] }): Promise<void> {
  const control = `${service.sandboxUrl!.replace(/\/api\/v10$/, '')}/_sandbox`;
  const put = async (path: string, body: unknown) => {
    const res = await fetch(control + path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`sandbox PUT ${path}: ${res.status} ${await res.text()}`);
  };
  for (const channel of objects.channels ?? []) await put(`/channels/${channel}`, { guild_id: guild });
  for (const role of objects.roles ?? []) await put(`/guilds/${guild}/roles/${role}`, { name: `role-${role.slice(-4)}` });
}

/** The fewest requests an operation can take and why: one read that decides, one conditional write per item it changes. */
export type Floor = [number, string];

/** A request count beside its floor. */
export function requestRow(operation: string, count: number, floor?: Floor): Row {
  return { section: 'DynamoDB requests', measure: operation, value: floor ? `${count} (floor ${floor[0]})` : String(count), note: floor?.[1] };
}

/** DynamoDB requests per foundation operation, counted at the client. */
export async function foundationRequests(service: LocalService, counter: DynamoCounter): Promise<Row[]> {
  const guild = '1234567890123456789';
  const rows: Row[] = [];
  const measure = async (operation: string, run: () => Promise<unknown>, floor?: Floor) => {
    counter.take();
    await run();
    rows.push(requestRow(operation, handlerRequests(counter.take()), floor));
  };
  await measure('module status', () => send(service, 'GET', `/modules/polls/status?guild_id=${guild}`), [1, 'one GetItem of the state item']);
  await measure('module enable (first time: settings created)', () => send(service, 'POST', '/modules/polls/enable', { guild_id: guild }), [
    2,
    'an id for the settings record, then one conditional update writing the state with its default settings',
  ]);
  await measure('module disable', () => send(service, 'POST', '/modules/polls/disable', { guild_id: guild }), [1, 'one conditional update']);
  await measure('module enable (settings exist)', () => send(service, 'POST', '/modules/polls/enable', { guild_id: guild }), [
    1,
    'one conditional update; the id drawn beside it goes unused, as enable no longer reads first',
  ]);
  let secret = '';
  let keyId = '';
  await measure('api key create', async () => {
    const res = await fetch(`${service.url}/auth/api-key`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.serviceToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ guild_id: guild }),
    });
    const json = (await res.json()) as { data: { api_key: { secret: string; key_id: string } } };
    secret = json.data.api_key.secret;
    keyId = json.data.api_key.key_id;
  }, [1, 'one conditional put']);
  await measure('api key list', () => send(service, 'GET', `/auth/api-key?guild_id=${guild}`), [1, 'one Query']);
  await measure(
    'module status with a guild key (authorizer + handler, first use: last_use written)',
    () => send(service, 'GET', `/modules/polls/status?guild_id=${guild}`, undefined, secret),
    [3, 'the key read (authorizer), the state read (handler), last_use written at most once a minute'],
  );
  await measure(
    'module status with a guild key (again within a minute)',
    () => send(service, 'GET', `/modules/polls/status?guild_id=${guild}`, undefined, secret),
    [2, 'the key read, the state read'],
  );
  await measure('api key revoke', () => send(service, 'DELETE', '/auth/api-key', { guild_id: guild, key_id: keyId }), [1, 'one conditional delete']);
  return rows;
}

/**
 * Warm cost of one request through the factory (Middy, validation,
 * envelope) against a raw handler doing the same GetItem and answering the
 * same JSON, called in process, interleaved so drift hits both alike.
 */
export async function warmCost(): Promise<Row[]> {
  const { handler } = await import('#functions/module-state/status.js');
  const event = {
    resource: '/modules/polls/status',
    path: '/modules/polls/status',
    httpMethod: 'GET',
    headers: {},
    queryStringParameters: { guild_id: '1234567890123456789' },
    pathParameters: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { authorizer: { caller: 'service' } },
  } as unknown as APIGatewayProxyEvent;
  const raw = async (e: APIGatewayProxyEvent) => {
    const out = await db().send(
      new GetCommand({ TableName: tableName(), Key: { pk: `G#${e.queryStringParameters!.guild_id}`, sk: 'MODULE#polls' }, ConsistentRead: true }),
    );
    return { statusCode: 200, body: JSON.stringify({ success: true, data: { status: out.Item?.enabled ?? false } }) };
  };
  const context = lambdaContext('bench');
  const factory: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < 600; round++) {
    let t = performance.now();
    await handler(event, context);
    if (round >= 100) factory.push(performance.now() - t);
    t = performance.now();
    await raw(event);
    if (round >= 100) bare.push(performance.now() - t);
  }
  const f = median(factory);
  const b = median(bare);
  return [
    {
      section: 'warm request',
      measure: 'raw handler, same GetItem (baseline)',
      value: `${(b * 1000).toFixed(0)} µs`,
      note: 'median of 500, in process against dynalite',
    },
    {
      section: 'warm request',
      measure: 'through the endpoint factory',
      value: `${(f / b).toFixed(2)}x baseline`,
      note: `${(f * 1000).toFixed(0)} µs; factory overhead ${((f - b) * 1000).toFixed(0)} µs`,
    },
  ];
}

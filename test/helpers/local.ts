import { randomInt } from 'node:crypto';
import { type LocalService, startLocal } from '#infra/local/start.js';
import type { paths } from '../../clients/typescript/schema.js';
import { checkAnswer } from './answers.js';

export const SERVICE_TOKEN = 'test-service-token-0123456789abcdef';

/** A route template as the paths it serves: each `{name}` is any text. */
type PathOf<T extends string> = T extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${string}${PathOf<Tail>}` : T;
type OperationOf<M extends string, R extends keyof paths> = paths[R][Lowercase<M> & keyof paths[R]];
/** The route templates of the typed client (clients/typescript/schema.d.ts) a method and a literal path reach. */
type RouteOf<M extends string, P extends string> = {
  [R in keyof paths]: P extends PathOf<R> ? (OperationOf<M, R> extends { responses: unknown } ? R : never) : never;
}[keyof paths];
type JsonBodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/**
 * The JSON body a route takes, as the typed client declares it, when the
 * method and the path are literals a route serves; `unknown` otherwise (a
 * path built at run time, a path no route serves).
 */
export type BodyOf<M extends string, P extends string> = string extends M | P
  ? unknown
  : [RouteOf<M, P>] extends [never]
    ? unknown
    : JsonBodyOf<OperationOf<M, RouteOf<M, P>>>;

export interface CallOptions<B = unknown> {
  /** Sent as JSON: what the route takes (checked against the typed client for literal routes). */
  body?: B;
  /** Sent as JSON as it is, not checked against the route's types: a body the service must refuse, or one a test builds loosely. */
  looseBody?: unknown;
  /** Sent as it is, instead of JSON of `body`. */
  rawBody?: string;
  query?: Record<string, string | number | boolean>;
  /** Bearer token; `null` sends no Authorization header. Default: the service token. */
  token?: string | null;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface TestService extends LocalService {
  call<M extends string, P extends string>(method: M, path: P, options?: CallOptions<BodyOf<M, P>>): Promise<CallResult>;
}

/**
 * Local mode in this process, in memory, with the sandbox platform; stop it in afterAll.
 * `indexLagMs` makes index queries lag as on AWS (infra/local/index-lag.ts);
 * `guildKeyRate` sets each guild key's rate (default: the service's, 10 a second);
 * `bot` runs the reference bot (clients/bot) connected to the sandbox's gateway
 * and the service, its lines to `botLog` (default: dropped), each attempt at a
 * service call cut off after `botAttemptTimeoutMs` (default the bot's own), a
 * module state believed for `botModuleStateTtlMs` (default the bot's own),
 * statistics held for a batch `botStatsFlushMs` (default the bot's own).
 */
export async function startTestService(
  options: {
    indexLagMs?: number;
    guildKeyRate?: number;
    bot?: boolean;
    botLog?: (line: string) => void;
    botAttemptTimeoutMs?: number;
    botModuleStateTtlMs?: number;
    botStatsFlushMs?: number;
  } = {},
): Promise<TestService> {
  const service = await startLocal({
    port: 0,
    dataDir: null,
    serviceToken: SERVICE_TOKEN,
    indexLagMs: options.indexLagMs ?? 0,
    guildKeyRate: options.guildKeyRate,
    printLogs: false,
    bot: options.bot ?? false,
    botLog: options.botLog ?? (() => undefined),
    botAttemptTimeoutMs: options.botAttemptTimeoutMs,
    botModuleStateTtlMs: options.botModuleStateTtlMs,
    botStatsFlushMs: options.botStatsFlushMs,
  });
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<CallResult> => {
    const url = new URL(service.url + path);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? SERVICE_TOKEN : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const body = bodyText(options);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    // Every success answer must be what its route declares (and /openapi.json publishes).
    await checkAnswer(method, url.pathname, res.status, parsed);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return Object.assign(service, { call });
}

/** What a call sends as its body: `rawBody` as it is, else JSON of `body` or `looseBody`, else nothing. */
export function bodyText(options: CallOptions): string | undefined {
  if (options.rawBody !== undefined) return options.rawBody;
  const json = options.body !== undefined ? options.body : options.looseBody;
  return json === undefined ? undefined : JSON.stringify(json);
}

/** A random realistic snowflake (18 to 19 digits, above 2^53). */
export function snowflake(): string {
  return (BigInt(randomInt(2 ** 40, 2 ** 47)) * 100000n + BigInt(randomInt(0, 100000))).toString();
}

/** Asserts the error envelope and answers its error. */
export function errorOf(result: CallResult): { code: number; name: string; message: string } {
  if (result.body?.success !== false || typeof result.body.error !== 'object') {
    throw new Error(`not an error envelope: ${result.status} ${result.text}`);
  }
  return result.body.error;
}

/** The data of a success answer (200); fails the test, showing the answer, on anything else. */
export function ok(res: CallResult): any {
  if (res.status !== 200 || res.body?.success !== true) throw new Error(`expected 200, got ${res.status} ${res.text}`);
  return res.body.data;
}

/** Asserts an error answer's status and name; answers its message. */
export function failed(res: CallResult, status: number, name: string): string {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${res.text}`);
  const error = errorOf(res);
  if (error.name !== name) throw new Error(`expected ${name}, got ${error.name}: ${error.message}`);
  return error.message;
}

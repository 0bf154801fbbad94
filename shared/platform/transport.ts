import { setTimeout as delay } from 'node:timers/promises';
import { stringifyJson } from '../http/json.js';
import { emit } from '../observe/emit.js';
import { log } from '../observe/log.js';
import { configuredSecret } from '../secrets.js';
import { PlatformError } from './platform-error.js';
import { type PlatformAnswer, type PlatformFetch, nodeFetch } from './node-fetch.js';
import { USER_AGENT } from './user-agent.js';
import { attempts, describeAnswer, describeNetworkError, maskPath, parseErrorBody } from './reasons.js';

/** The public platform, used when `PLATFORM_API_BASE_URL` is not set. */
export const DEFAULT_PLATFORM_BASE_URL = 'https://discord.com/api/v10';
/** The time limit of one attempt of a platform call, unless a client sets its own. */
export const PLATFORM_TIMEOUT_MS = 5000;

/** How the client reaches the platform and how patient it is. Every field has a default. */
export interface TransportOptions {
  /** Base URL ending in `/api/v10`; default: `PLATFORM_API_BASE_URL` read at each call. */
  baseUrl?: string | (() => string | undefined);
  /** Bot token; default: `PLATFORM_BOT_TOKEN`, or the secret named by `PLATFORM_BOT_TOKEN_SECRET_ARN`, read at each call. */
  token?: string | (() => string | undefined);
  /** Attempts for 5xx answers and network errors, the first included, for calls that may be resent ({@link resendable}). Default 3. */
  maxAttempts?: number;
  /** Time limit of each attempt. Default {@link PLATFORM_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Total time one call may spend waiting out 429s; a longer `retry_after` fails at once. Default 10000 ms. */
  maxRateLimitWaitMs?: number;
  /** How many 429s one call waits out. Default 10 (guards against `retry_after: 0` loops). */
  maxRateLimitRetries?: number;
  /** Pause after the n-th failed attempt (n from 1). Default 100 ms, 200 ms, 400 ms ... */
  backoffMs?: (failedAttempts: number) => number;
  /** How the client waits; tests replace it to skip the waiting. */
  sleep?: (ms: number) => Promise<void>;
  /** How a request is sent; default `nodeFetch` (node:https). The global `fetch` fits too. */
  fetch?: PlatformFetch;
}

/** The HTTP methods the platform API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One platform call: a path after the base URL, an optional JSON body and query. */
export interface PlatformRequest {
  method: HttpMethod;
  path: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** A POST the platform answers the same however often it is sent (opening a DM channel), so it may be resent. */
  idempotent?: boolean;
}

/** Sends a request and answers the parsed JSON (undefined for 204), or throws a {@link PlatformError}. */
export type Send = <T>(request: PlatformRequest) => Promise<T>;

/**
 * Errors where the request surely never reached the platform: resending
 * any call after them cannot make a second effect.
 */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/**
 * True when sending the request again cannot make a second effect on the
 * platform (behaviour §13): GET, PUT, PATCH and DELETE, a POST marked
 * idempotent, and a message create carrying a nonce the platform enforces
 * (a resend reuses the body, so the platform answers the first message).
 * Any other POST (an interaction callback, a webhook message, an invite) is
 * not resent after an answer that may have landed: a 5xx or a timeout.
 */
export function resendable(request: PlatformRequest): boolean {
  if (request.method !== 'POST' || request.idempotent === true) return true;
  const body = request.body as { nonce?: unknown; enforce_nonce?: unknown } | undefined;
  return body?.enforce_nonce === true && (typeof body.nonce === 'string' || typeof body.nonce === 'number');
}

function neverSent(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' && NEVER_SENT.has(cause.code);
}

/** Why a failed call stopped before its attempts ran out: it was not resent, since its effect may have landed. */
function notResent(failures: number, maxAttempts: number): string {
  return failures < maxAttempts ? '; not resent, since the platform may have done it already' : '';
}

function read(value: string | (() => string | undefined) | undefined, fallback: () => string | undefined): string | undefined {
  if (typeof value === 'function') return value();
  return value ?? fallback();
}

function buildUrl(baseUrl: string, request: PlatformRequest): URL {
  const url = new URL(baseUrl + request.path);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url;
}

/** Seconds to wait, from the 429 body's `retry_after` or else the headers. */
function retryAfterMs(body: { retry_after?: unknown } | undefined, headers: PlatformAnswer['headers']): number {
  const candidates = [body?.retry_after, headers.get('retry-after'), headers.get('x-ratelimit-reset-after')];
  for (const candidate of candidates) {
    const seconds = typeof candidate === 'number' ? candidate : typeof candidate === 'string' ? Number.parseFloat(candidate) : Number.NaN;
    if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000));
  }
  return 1000;
}

/** The URL and signed request for one call; the base URL and token are read now, not at start-up. */
async function prepare(options: TransportOptions, request: PlatformRequest, where: { method: string; path: string }) {
  const baseUrl = (read(options.baseUrl, () => process.env.PLATFORM_API_BASE_URL) || DEFAULT_PLATFORM_BASE_URL).replace(/\/+$/, '');
  let url: URL;
  try {
    url = buildUrl(baseUrl, request);
  } catch {
    throw new PlatformError(`The platform base URL "${baseUrl}" is not a valid URL; set PLATFORM_API_BASE_URL to a URL ending in /api/v10.`, where);
  }
  const token = (options.token === undefined ? await configuredSecret('PLATFORM_BOT_TOKEN') : read(options.token, () => undefined)) ?? '';
  const headers: Record<string, string> = { Authorization: `Bot ${token}`, 'User-Agent': USER_AGENT };
  let body: string | undefined;
  if (request.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = stringifyJson(request.body);
  }
  return { baseUrl, url, init: { method: request.method, headers, body } };
}

function parseSuccess<T>(text: string, failure: () => PlatformError): T {
  if (text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw failure();
  }
}

/**
 * A platform path as its route template, as the platform's documentation
 * writes it (`/channels/{id}/messages/{id}/reactions/{id}/@me`): every
 * segment that is not a word of the API (an ID, an emoji, a token) becomes
 * `{id}`, so a log line names the operation and carries no token.
 */
export function routeTemplate(path: string): string {
  return path.replace(/\?.*/, '').replace(/\/(?!@?[a-z][a-z-]*(?:\/|$))[^/]+/g, '/{id}');
}

/** The platform call a log line is about: its method and route template. */
function callOf(request: PlatformRequest): string {
  return `${request.method} ${routeTemplate(request.path)}`;
}

/**
 * Builds the function every platform call goes through: it signs the
 * request, waits out 429s within a budget, retries 5xx and network errors a
 * bounded number of times with a short backoff (only calls that cannot make
 * a second effect, see {@link resendable}), limits each attempt in time,
 * and turns every failure into a 502 {@link PlatformError} naming the
 * platform's answer.
 */
export function createTransport(options: TransportOptions = {}): Send {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const timeoutMs = options.timeoutMs ?? PLATFORM_TIMEOUT_MS;
  const maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? 10_000;
  const maxRateLimitRetries = options.maxRateLimitRetries ?? 10;
  const backoffMs = options.backoffMs ?? ((n: number) => 100 * 2 ** (n - 1));
  const sleep = options.sleep ?? ((ms: number) => delay(ms));

  /** A retry, logged at warn: the call, why, which attempt comes next, how long it waits. */
  function retrying(request: PlatformRequest, reason: { status?: number; code?: number; error?: string }, attempt: number, waitMs: number): void {
    log('warn', 'retry', { call: callOf(request), ...reason, attempt, wait_ms: waitMs });
  }

  async function sendOnce<T>(request: PlatformRequest): Promise<T> {
    const shown = maskPath(request.path);
    const where = { method: request.method, path: shown };
    const { baseUrl, url, init } = await prepare(options, request, where);
    const doFetch = options.fetch ?? nodeFetch;

    let failures = 0;
    let rateLimits = 0;
    let waitedMs = 0;
    for (;;) {
      let response: PlatformAnswer;
      let text: string;
      try {
        response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
        text = await response.text();
      } catch (error) {
        failures += 1;
        if (failures < maxAttempts && (resendable(request) || neverSent(error))) {
          retrying(request, { error: describeNetworkError(error, timeoutMs) }, failures + 1, backoffMs(failures));
          await sleep(backoffMs(failures));
          continue;
        }
        throw new PlatformError(
          `The platform could not be reached at ${baseUrl}${shown} ${attempts(failures)} (${describeNetworkError(error, timeoutMs)})${notResent(failures, maxAttempts)}.`,
          where,
        );
      }

      if (response.ok) {
        return parseSuccess<T>(
          text,
          () =>
            new PlatformError(`The platform answered ${response.status} to ${request.method} ${shown} with a body that is not JSON.`, {
              ...where,
              status: response.status,
            }),
        );
      }

      const body = parseErrorBody(text);
      const failure = { ...where, status: response.status, code: typeof body?.code === 'number' ? body.code : undefined };
      if (response.status === 429) {
        emit({ platformRateLimited: 1 });
        const waitMs = retryAfterMs(body, response.headers);
        if (rateLimits < maxRateLimitRetries && waitedMs + waitMs <= maxRateLimitWaitMs) {
          rateLimits += 1;
          waitedMs += waitMs;
          retrying(request, { status: 429, code: failure.code }, failures + rateLimits + 1, waitMs);
          await sleep(waitMs);
          continue;
        }
        throw new PlatformError(
          `The platform answered ${describeAnswer(429, body)} to ${request.method} ${shown} and asked to wait ${waitMs / 1000} s more, beyond the ${maxRateLimitWaitMs / 1000} s a call may wait.`,
          { ...failure, retryAfterMs: waitMs },
        );
      }
      if (response.status >= 500) {
        emit({ platformServerErrors: 1 });
        failures += 1;
        if (failures < maxAttempts && resendable(request)) {
          retrying(request, { status: response.status, code: failure.code }, failures + 1, backoffMs(failures));
          await sleep(backoffMs(failures));
          continue;
        }
        throw new PlatformError(
          `The platform answered ${describeAnswer(response.status, body)} to ${request.method} ${shown} ${attempts(failures)}${notResent(failures, maxAttempts)}.`,
          failure,
        );
      }
      throw new PlatformError(`The platform answered ${describeAnswer(response.status, body)} to ${request.method} ${shown}.`, failure);
    }
  }

  /** Every call that fails writes one line: its route template, the platform's status and JSON code (none when unreachable). */
  return async function send<T>(request: PlatformRequest): Promise<T> {
    try {
      return await sendOnce<T>(request);
    } catch (error) {
      if (error instanceof PlatformError) {
        log('warn', 'platform call failed', {
          call: callOf(request),
          status: error.platformStatus ?? null,
          code: error.platformCode ?? null,
          error: error.message.slice(0, 300),
        });
      }
      throw error;
    }
  };
}

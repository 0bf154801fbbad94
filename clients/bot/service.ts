/**
 * Sends the event table's calls to the service through the typed client
 * (clients/typescript), each with its `Idempotency-Key`, with the retry
 * policy of retry.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createGuildModulesClient } from '../typescript/index.js';
import type { Call } from './calls.js';
import { DEFAULT_RETRY, nextDelay, type Outcome, type RetryPolicy } from './retry.js';

/** What a call came to: the service's status (null: never reached), and its error message when it refused. */
export interface CallResult {
  operation: string;
  status: number | null;
  /** The envelope's `error.message`, or why the service could not be reached. */
  error: string | null;
  /** The envelope's `error.name` (`ModuleDisabledError` ...), null on success or when unreached. */
  errorName?: string | null;
  attempts: number;
}

export interface ServiceOptions {
  url: string;
  token: string;
  retry?: RetryPolicy;
  /** How long one attempt may take; default {@link ATTEMPT_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/**
 * How long the bot waits for one attempt: longer than the service can take,
 * so a slow answer is waited for, not sent again while it still runs.
 * Deployed, API Gateway runs the authorizer (at most 10 s, uncached) and
 * then gives the route function at most 29 s before it answers 504 itself
 * (the functions' timeout, 10 s by default, may be raised to 29 s and no
 * further), whatever the function's platform waits (one platform call may
 * wait out 10 s of 429s and three 5 s attempts): 39 s, and 6 s for the
 * network. Local mode does not cut a function off; an operation slower
 * than this is sent again with its key, which the service answers with 409
 * and `Retry-After` while the first attempt runs, then with its answer.
 */
export const ATTEMPT_TIMEOUT_MS = 45_000;

/** Connection errors after which the request surely never reached the service. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

const neverSent = (error: unknown) => NEVER_SENT.has(String(((error as Error).cause as { code?: unknown } | undefined)?.code));

export type SendCall = (call: Call) => Promise<CallResult>;

export function createService({ url, token, retry = DEFAULT_RETRY, timeoutMs = ATTEMPT_TIMEOUT_MS }: ServiceOptions): SendCall {
  const api = createGuildModulesClient({ baseUrl: url, token });

  const attempt = async (call: Call): Promise<{ outcome: Outcome; error: string | null; errorName: string | null }> => {
    try {
      const init = {
        params: {
          path: call.pathParams,
          header: {
            ...(call.actor ? { 'X-Acting-User-Id': call.actor } : {}),
            ...(call.idempotencyKey ? { 'Idempotency-Key': call.idempotencyKey } : {}),
          },
        },
        body: call.body,
        signal: AbortSignal.timeout(timeoutMs),
      };
      // The call's path and body were checked against the schema where the call was built (calls.ts).
      const { error, response } = await api.request(call.method, call.path as never, init as never);
      const { message, name } = (error as { error?: { message?: unknown; name?: unknown } } | undefined)?.error ?? {};
      return {
        outcome: { status: response.status, retryAfter: response.headers.get('retry-after') },
        error: response.ok ? null : typeof message === 'string' ? message : `HTTP ${response.status}`,
        errorName: typeof name === 'string' ? name : null,
      };
    } catch (error) {
      const why =
        (error as Error).name === 'TimeoutError' ? `did not answer within ${timeoutMs / 1000} s` : `could not be reached (${(error as Error).message})`;
      return { outcome: { unreachable: true, landed: !neverSent(error) }, error: `the service at ${url} ${why}`, errorName: null };
    }
  };

  return async (call) => {
    for (let attempts = 1; ; attempts++) {
      const { outcome, error, errorName } = await attempt(call);
      const wait = nextDelay(retry, attempts, outcome, call.idempotencyKey !== null);
      if (wait === null) return { operation: call.operation, status: 'status' in outcome ? outcome.status : null, error, errorName, attempts };
      await sleep(wait);
    }
  };
}

/** A read the bot makes (module states, autocomplete): its `data`, or null when the service did not answer it with 2xx. */
export type Read = (path: string, query: Record<string, string | number>) => Promise<Record<string, unknown> | null>;

/** Reads from the service: one attempt, cut off sooner than a call (a member typing waits on it). */
export function createReader({ url, token, timeoutMs = 5_000 }: ServiceOptions): Read {
  const api = createGuildModulesClient({ baseUrl: url, token });
  return async (path, query) => {
    try {
      // The paths are the service's GET routes, named where the bot reads them (modules.ts, commands.ts).
      const { data, response } = await api.request('get', path as never, { params: { query }, signal: AbortSignal.timeout(timeoutMs) } as never);
      return response.ok ? (((data as { data?: unknown } | undefined)?.data as Record<string, unknown> | undefined) ?? null) : null;
    } catch {
      return null;
    }
  };
}

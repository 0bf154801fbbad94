/**
 * Sends the event table's calls to the service through the typed client
 * (clients/typescript), with the retry policy of retry.ts.
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
  attempts: number;
}

export interface ServiceOptions {
  url: string;
  token: string;
  retry?: RetryPolicy;
  /** How long one attempt may take. */
  timeoutMs?: number;
}

export type SendCall = (call: Call) => Promise<CallResult>;

export function createService({ url, token, retry = DEFAULT_RETRY, timeoutMs = 10_000 }: ServiceOptions): SendCall {
  const api = createGuildModulesClient({ baseUrl: url, token });

  const attempt = async (call: Call): Promise<{ outcome: Outcome; error: string | null }> => {
    try {
      const init = {
        params: { path: call.pathParams, header: call.actor ? { 'X-Acting-User-Id': call.actor } : {} },
        body: call.body,
        signal: AbortSignal.timeout(timeoutMs),
      };
      // The call's path and body were checked against the schema where the call was built (calls.ts).
      const { error, response } = await api.request(call.method, call.path as never, init as never);
      const message = (error as { error?: { message?: unknown } } | undefined)?.error?.message;
      return {
        outcome: { status: response.status, retryAfter: response.headers.get('retry-after') },
        error: response.ok ? null : typeof message === 'string' ? message : `HTTP ${response.status}`,
      };
    } catch (error) {
      return { outcome: { unreachable: true }, error: `the service at ${url} could not be reached (${(error as Error).message})` };
    }
  };

  return async (call) => {
    for (let attempts = 1; ; attempts++) {
      const { outcome, error } = await attempt(call);
      const wait = nextDelay(retry, attempts, outcome);
      if (wait === null) return { operation: call.operation, status: 'status' in outcome ? outcome.status : null, error, attempts };
      await sleep(wait);
    }
  };
}

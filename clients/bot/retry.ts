/**
 * When the bot tries a service call again. A call for an event carries its
 * `Idempotency-Key` (keys.ts), so the service does the event once however
 * often it is sent (behaviour §16): such a call is retried whenever the
 * answer may change, after a timeout or a lost connection, a 429, 502, 503
 * or 504 (the gateway's own timeout), and a 409 with `Retry-After` (the
 * first attempt with that key is still running). It waits what
 * `Retry-After` asks, else a doubling back-off. A call without a key (none
 * the event table makes) is retried only where nothing could have landed:
 * the service asked for it with `Retry-After` on 429, 502 or 503, or the
 * connection was refused. Everything else is the answer. Bounded: a few
 * attempts, each wait capped, so a member waiting on a click hears back.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** The longest single wait, whatever `Retry-After` asks. */
  maxWaitMs: number;
  /** The first wait when the answer says none; doubles each time. */
  baseMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, maxWaitMs: 5_000, baseMs: 250 };

/** Statuses a keyed call tries again: the service or its gateway was busy, failed or too slow, and the key makes a repeat safe. */
const RETRYABLE_KEYED = new Set([429, 502, 503, 504]);
/** Statuses a call without a key tries again, when the service says when (`Retry-After`): it marks these only where nothing was done. */
const RETRYABLE_UNKEYED = new Set([429, 502, 503]);

/**
 * What an attempt got: an answer, or none. `landed: false` when the request
 * surely never reached the service (the connection was refused); a timeout
 * or a broken connection may have reached it.
 */
export type Outcome = { status: number; retryAfter: string | null } | { unreachable: true; landed: boolean };

/** `Retry-After` in milliseconds: seconds (decimals allowed) or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * How long to wait before the next attempt, or null when the outcome is
 * final. `attempt` counts the attempts made (1 after the first); `keyed`:
 * the call carries an `Idempotency-Key`.
 */
export function nextDelay(policy: RetryPolicy, attempt: number, outcome: Outcome, keyed: boolean, now = Date.now()): number | null {
  if (attempt >= policy.maxAttempts) return null;
  const backoff = Math.min(policy.baseMs * 2 ** (attempt - 1), policy.maxWaitMs);
  if ('unreachable' in outcome) return keyed || !outcome.landed ? backoff : null;
  const asked = retryAfterMs(outcome.retryAfter, now);
  const wait = asked === null ? null : Math.min(asked, policy.maxWaitMs);
  if (!keyed) return RETRYABLE_UNKEYED.has(outcome.status) ? wait : null;
  if (RETRYABLE_KEYED.has(outcome.status)) return wait ?? backoff;
  // A 409 with Retry-After: the first attempt with this key still runs; any other 409 is a refusal.
  return outcome.status === 409 ? wait : null;
}

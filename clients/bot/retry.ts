/**
 * When the bot tries a service call again. The service marks what may be
 * retried: 429, 502 and 503 with a `Retry-After` header (its writes are
 * conditional, so a repeat never doubles an effect). A service that cannot
 * be reached at all is retried with a doubling backoff. Everything else is
 * the answer. Bounded: a few attempts, each wait capped, so a member waiting
 * on a click hears back within seconds.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** The longest single wait, whatever `Retry-After` asks. */
  maxWaitMs: number;
  /** The first wait after a failure to reach the service; doubles each time. */
  baseMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, maxWaitMs: 5_000, baseMs: 250 };

/** The statuses the service answers with `Retry-After` when a repeat may succeed. */
const RETRYABLE = new Set([429, 502, 503]);

/** What an attempt got: an answer, or no answer at all. */
export type Outcome = { status: number; retryAfter: string | null } | { unreachable: true };

/** `Retry-After` in milliseconds: seconds (decimals allowed) or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** How long to wait before the next attempt, or null when the outcome is final. `attempt` counts the attempts made (1 after the first). */
export function nextDelay(policy: RetryPolicy, attempt: number, outcome: Outcome, now = Date.now()): number | null {
  if (attempt >= policy.maxAttempts) return null;
  if ('unreachable' in outcome) return Math.min(policy.baseMs * 2 ** (attempt - 1), policy.maxWaitMs);
  if (!RETRYABLE.has(outcome.status)) return null;
  const wait = retryAfterMs(outcome.retryAfter, now);
  return wait === null ? null : Math.min(wait, policy.maxWaitMs);
}

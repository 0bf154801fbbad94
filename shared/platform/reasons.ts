import { STATUS_CODES } from 'node:http';
import type { PlatformErrorBody } from './types.js';

/**
 * The sentences a failed platform call answers with. Kept apart from the
 * transport so the wording (which clients read) has one place to change.
 */

/** Interaction tokens are credentials for 15 minutes: never echo them back. */
export function maskPath(path: string): string {
  return path.replace(/^(\/webhooks\/[^/?]+\/)[^/?]+/, '$1***');
}

/** Reads a platform error body; anything that is not one answers undefined. */
export function parseErrorBody(text: string): Partial<PlatformErrorBody> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Partial<PlatformErrorBody>) : undefined;
  } catch {
    return undefined;
  }
}

/** The first field complaint inside an "Invalid Form Body" error tree, as `field: message`. */
function firstFieldError(errors: unknown, at: string[] = []): string | undefined {
  if (!errors || typeof errors !== 'object') return undefined;
  const node = errors as Record<string, unknown>;
  const own = node._errors;
  if (Array.isArray(own) && own.length > 0) {
    const message = String((own[0] as { message?: unknown }).message ?? '').replace(/\.$/, '');
    return at.length > 0 ? `${at.join('.')}: ${message}` : message;
  }
  for (const [key, child] of Object.entries(node)) {
    const found = firstFieldError(child, [...at, key]);
    if (found) return found;
  }
  return undefined;
}

/** "403 Missing Permissions (code 50013)", from the status and the body the platform sent. */
export function describeAnswer(status: number, body: Partial<PlatformErrorBody> | undefined): string {
  // The platform words some errors as "401: Unauthorized"; the status is already said.
  const message = typeof body?.message === 'string' ? body.message.replace(/^\d{3}:\s*/, '') : STATUS_CODES[status] ?? 'Unknown Status';
  const details: string[] = [];
  if (typeof body?.code === 'number' && body.code !== 0) details.push(`code ${body.code}`);
  const field = firstFieldError(body?.errors);
  if (field) details.push(field);
  return details.length > 0 ? `${status} ${message} (${details.join('; ')})` : `${status} ${message}`;
}

/** Why a request got no answer: a timeout, or the network error's own words. */
export function describeNetworkError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause = error instanceof Error ? (error.cause as { message?: unknown } | undefined) : undefined;
  if (cause && typeof cause.message === 'string' && cause.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** "after 3 attempts" / "after 1 attempt". */
export function attempts(n: number): string {
  return `after ${n} ${n === 1 ? 'attempt' : 'attempts'}`;
}

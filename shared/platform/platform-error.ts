import { AppError } from '../errors.js';

/**
 * The platform's JSON error codes a use case may want to tell apart
 * (Discord "JSON error codes").
 */
export const PlatformCode = {
  UnknownChannel: 10003,
  UnknownGuild: 10004,
  UnknownInvite: 10006,
  UnknownMember: 10007,
  UnknownMessage: 10008,
  UnknownRole: 10011,
  UnknownUser: 10013,
  UnknownEmoji: 10014,
  UnknownWebhook: 10015,
  UnknownInteraction: 10062,
  MaxReactions: 30010,
  MissingAccess: 50001,
  CannotEditOthersMessage: 50005,
  CannotSendEmptyMessage: 50006,
  CannotMessageUser: 50007,
  MissingPermissions: 50013,
  InvalidFormBody: 50035,
  PollExpired: 520001,
  CannotExpireNonPoll: 520006,
} as const;

/** Where a failed platform call went, and what the platform answered (if it answered). */
export interface PlatformFailure {
  method: string;
  /** The API path after the base URL, with secrets (interaction tokens) masked. */
  path: string;
  /** The HTTP status the platform answered; undefined when it could not be reached. */
  status?: number;
  /** The platform's JSON error `code`, when the body carried one. */
  code?: number;
  /** On a 429: how long the platform asked to wait (ms), from `retry_after` or the headers. */
  retryAfterMs?: number;
}

/**
 * A 502 PlatformApiInteractionError that also keeps the platform's status and
 * error code, so a use case can treat "unknown message" or "missing
 * permissions" on its own terms before letting the error answer.
 */
export class PlatformError extends AppError {
  readonly platformStatus: number | undefined;
  readonly platformCode: number | undefined;
  /** On a 429: how long the platform asked to wait (ms); a caller that defers the call waits at least that. */
  readonly retryAfterMs: number | undefined;
  readonly method: string;
  readonly path: string;

  constructor(reason: string, failure: PlatformFailure) {
    super('PlatformApiInteractionError', reason);
    this.name = 'PlatformError';
    this.platformStatus = failure.status;
    this.platformCode = failure.code;
    this.retryAfterMs = failure.retryAfterMs;
    this.method = failure.method;
    this.path = failure.path;
  }
}

/** True when `error` is a platform failure, optionally with this status and/or JSON code. */
export function isPlatformError(error: unknown, match: { status?: number; code?: number } = {}): error is PlatformError {
  if (!(error instanceof PlatformError)) return false;
  if (match.status !== undefined && error.platformStatus !== match.status) return false;
  if (match.code !== undefined && error.platformCode !== match.code) return false;
  return true;
}

/**
 * True when the platform said the thing is gone (unknown message, channel,
 * invite ...): a 404, or the matching JSON code on another status.
 */
export function isPlatformNotFound(error: unknown, code?: number): error is PlatformError {
  if (!isPlatformError(error)) return false;
  if (code !== undefined) return error.platformCode === code;
  return error.platformStatus === 404;
}

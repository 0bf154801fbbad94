/**
 * The error catalogue of behaviour §3.2, in one place.
 *
 * Use cases throw {@link AppError}s; the endpoint factory turns them into the
 * error envelope. Nothing below the factory builds an HTTP response.
 */

/** Every error name the service can answer with, and its HTTP status and title. */
export const catalogue = {
  BadRequestError: { status: 400, title: 'Bad Request' },
  UnauthorizedError: { status: 401, title: 'Unauthorized' },
  ForbiddenError: { status: 403, title: 'Forbidden' },
  NotFoundError: { status: 404, title: 'Not Found' },
  SettingsError: { status: 404, title: 'Settings Error' },
  MethodNotAllowedError: { status: 405, title: 'Method Not Allowed' },
  ModuleDisabledError: { status: 409, title: 'Module Disabled' },
  ModuleEnabledError: { status: 409, title: 'Module Enabled' },
  ConflictError: { status: 409, title: 'Conflict' },
  PayloadTooLargeError: { status: 413, title: 'Payload Too Large' },
  'Unprocessable Entity': { status: 422, title: 'Unprocessable Entity' },
  RateLimitedError: { status: 429, title: 'Too Many Requests' },
  InternalServerError: { status: 500, title: 'Internal Server Error' },
  PlatformApiInteractionError: { status: 502, title: 'Platform API Interaction Error' },
  DatabaseError: { status: 503, title: 'Database Error' },
} as const;

export type ErrorName = keyof typeof catalogue;

/** An error a client is meant to see: its name, status and one actionable sentence. */
export class AppError extends Error {
  readonly status: number;
  readonly title: string;
  /** The `code` in the envelope; equals the status except on the reaction-role check quirk. */
  readonly code: number;

  /**
   * `status` and `code` override the catalogue's status; only the
   * reaction-role check quirk (behaviour §3.3) needs them: an Unprocessable
   * Entity answered with HTTP 404 and code 404.
   */
  constructor(
    readonly errorName: ErrorName,
    readonly reason: string,
    options: { status?: number; code?: number; headers?: Record<string, string>; botOnly?: boolean } = {},
  ) {
    const { title } = catalogue[errorName];
    super(`${title}! ${reason}`);
    this.name = 'AppError';
    this.status = options.status ?? catalogue[errorName].status;
    this.title = title;
    this.code = options.code ?? this.status;
    this.headers = options.headers ?? {};
    this.botOnly = options.botOnly ?? false;
  }

  readonly headers: Record<string, string>;
  /** About how the bot calls (a repeat of a keyed call), never the member's doing: not told to the member of an interaction. */
  readonly botOnly: boolean;
}

/** Shorthands, so that a use case reads as what went wrong. */
export const badRequest = (reason: string) => new AppError('BadRequestError', reason);
export const unauthorized = (reason: string) => new AppError('UnauthorizedError', reason);
export const forbidden = (reason: string) => new AppError('ForbiddenError', reason);
export const notFound = (reason: string) => new AppError('NotFoundError', reason);
export const settingsMissing = (reason: string) => new AppError('SettingsError', reason);
export const moduleDisabled = (reason: string) => new AppError('ModuleDisabledError', reason);
export const moduleEnabled = (reason: string) => new AppError('ModuleEnabledError', reason);
export const unprocessable = (reason: string) => new AppError('Unprocessable Entity', reason);
export const platformFailed = (reason: string) => new AppError('PlatformApiInteractionError', reason);
export const databaseFailed = (reason: string, retryAfterSeconds = 1) =>
  new AppError('DatabaseError', reason, { headers: { 'Retry-After': String(retryAfterSeconds) } });

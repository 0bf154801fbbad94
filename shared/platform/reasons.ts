import type { PlatformErrorBody } from './types.js';

/**
 * The sentences a failed platform call answers with. Kept apart from the
 * transport so the wording (which clients read) has one place to change.
 */

/**
 * HTTP reason phrases, for answers without a message of their own. A table
 * rather than `node:http`'s STATUS_CODES: importing `node:http` loads the
 * whole HTTP stack into every function that can call the platform.
 */
const STATUS_CODES: Record<number, string> = {
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  305: 'Use Proxy',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a Teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  509: 'Bandwidth Limit Exceeded',
  510: 'Not Extended',
  511: 'Network Authentication Required',
};

/** Interaction tokens are credentials for 15 minutes: never echo them back. */
export function maskPath(path: string): string {
  return path.replace(/^(\/webhooks\/[^/?]+\/)[^/?]+/, '$1***').replace(/^(\/interactions\/[^/?]+\/)[^/?]+/, '$1***');
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
  const message = typeof body?.message === 'string' ? body.message.replace(/^\d{3}:\s*/, '') : (STATUS_CODES[status] ?? 'Unknown Status');
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

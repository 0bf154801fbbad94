/**
 * Route tables for the sandbox: `:name` segments become parameters, and
 * parameters named like platform IDs must be snowflakes (400 Invalid Form
 * Body otherwise, as the platform answers).
 */
import { invalidField, methodNotAllowed, routeNotFound } from './errors.js';
import type { SandboxState } from './state.js';

/** What a route handler gets. */
export interface RouteContext {
  state: SandboxState;
  /** URL-decoded path parameters. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body, or undefined when there was none. */
  body: unknown;
  /** The request's `Authorization` header (platform routes). */
  authorization?: string;
  /** The body as sent, for a `form` route. */
  rawBody?: string;
}

/** What a route handler answers: a status and, unless 204, a JSON body. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** e.g. `/channels/:channel/messages/:message`; literal segments such as `@me` win over parameters. */
  pattern: string;
  /** The platform does not ask webhook callers for the bot token. */
  public?: boolean;
  /** A person's OAuth2 bearer token is accepted beside the bot token; the handler resolves it. */
  bearer?: boolean;
  /** The body is form-encoded (OAuth2's token exchange): given as `rawBody`, not parsed as JSON. */
  form?: boolean;
  handle(context: RouteContext): Reply | Promise<Reply>;
}

/** Parameters that hold platform IDs, and the field name the platform's error uses for them. */
const SNOWFLAKE_PARAMS: Record<string, string> = {
  channel: 'channel_id',
  message: 'message_id',
  guild: 'guild_id',
  user: 'user_id',
  role: 'role_id',
  application: 'application_id',
  command: 'command_id',
};

function matchPattern(pattern: string, segments: string[]): Record<string, string> | null {
  const parts = pattern.split('/').slice(1);
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    const segment = segments[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = segment;
    else if (part !== segment) return null;
  }
  return params;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function checkSnowflakes(params: Record<string, string>): void {
  for (const [name, value] of Object.entries(params)) {
    const field = SNOWFLAKE_PARAMS[name];
    if (field && !/^[0-9]{1,20}$/.test(value)) {
      throw invalidField([field], 'NUMBER_TYPE_COERCE', `Value "${value}" is not snowflake.`);
    }
  }
}

/**
 * Finds the route for a method and a raw (still encoded) path: throws 404
 * for an unknown path and 405 for a known path with another method. Routes
 * are tried in order, so list literal routes before parameter ones.
 */
export function findRoute(routes: Route[], method: string, rawPath: string): { route: Route; params: Record<string, string> } {
  const segments = rawPath.split('/').slice(1).map(decode);
  let pathKnown = false;
  for (const route of routes) {
    const params = matchPattern(route.pattern, segments);
    if (!params) continue;
    pathKnown = true;
    if (route.method !== method) continue;
    checkSnowflakes(params);
    return { route, params };
  }
  throw pathKnown ? methodNotAllowed() : routeNotFound();
}

/** The `limit` query parameter: 1..100, or `fallback` when absent; 400 otherwise. */
export function readLimit(query: URLSearchParams, fallback: number): number {
  const text = query.get('limit');
  if (text === null) return fallback;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidField(['limit'], 'NUMBER_TYPE_MAX', 'int value should be between 1 and 100.');
  return limit;
}

/** A snowflake query parameter (`before`, `after`), or null when absent; 400 when not a snowflake. */
export function readSnowflakeQuery(query: URLSearchParams, name: string): string | null {
  const value = query.get(name);
  if (value === null) return null;
  if (!/^[0-9]{1,20}$/.test(value)) throw invalidField([name], 'NUMBER_TYPE_COERCE', `Value "${value}" is not snowflake.`);
  return value;
}

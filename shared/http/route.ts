/**
 * A route as plain data: the one description of an endpoint that local mode,
 * CDK, the authorizer and the OpenAPI document all read.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** public: no credentials; client: service token or that guild's API key; internal: service token only. */
export type Access = 'public' | 'client' | 'internal';

export interface Route {
  /** `module.operation`, unique; CDK construct IDs are made from it. */
  id: string;
  method: Method;
  /** API Gateway resource path, `{param}` for path parameters, without the `/v1` prefix. */
  path: string;
  access: Access;
  /** The handler file, relative to the repository root; it exports `handler`. */
  file: string;
  /**
   * The export of `file` the route's function calls, when not `handler`: a
   * file declaring the handlers of several routes (a module's basics) is
   * bundled once per export, so each function carries its own route only.
   */
  handler?: string;
  /** One line for the OpenAPI document. */
  summary: string;
}

/** What a route's function is built from: its file, and the export called when not `handler`. One bundle per entry. */
export type Entry = Pick<Route, 'file' | 'handler'>;

/** An entry as one string, `file` or `file#export`: what builds, bundle folders and CDK assets are keyed by. */
export const entryOf = ({ file, handler }: Entry): string => (handler ? `${file}#${handler}` : file);

/** The file and the export of an entry string ({@link entryOf} undone). */
export function splitEntry(entry: string): { file: string; handler: string } {
  const at = entry.indexOf('#');
  return at < 0 ? { file: entry, handler: 'handler' } : { file: entry.slice(0, at), handler: entry.slice(at + 1) };
}

/** Splits `/a/{b}/c` into segments. */
export const segments = (path: string) => path.split('/').filter(Boolean);

export interface RouteMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

/** A route table's templates, split once, with the routes of each: local mode matches every request against them. */
interface Template {
  template: string;
  parts: string[];
  routes: Route[];
}
const indexed = new WeakMap<readonly Route[], Template[]>();

function templatesOf(routes: readonly Route[]): Template[] {
  let templates = indexed.get(routes);
  if (!templates) {
    const byPath = new Map<string, Template>();
    for (const route of routes) {
      const known = byPath.get(route.path);
      if (known) known.routes.push(route);
      else byPath.set(route.path, { template: route.path, parts: segments(route.path), routes: [route] });
    }
    templates = [...byPath.values()];
    indexed.set(routes, templates);
  }
  return templates;
}

/**
 * Matches a concrete path against route templates. A literal segment wins
 * over a parameter at the same place (as API Gateway does). Answers the
 * routes of the matched path template (any method) so the caller can tell
 * 404 from 405.
 */
export function matchPath(routes: readonly Route[], path: string): { template: string; routes: Route[]; pathParameters: Record<string, string> } | null {
  const wanted = segments(path);
  let best: { found: Template; score: number; pathParameters: Record<string, string> } | null = null;
  for (const found of templatesOf(routes)) {
    const { parts } = found;
    if (parts.length !== wanted.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const part = parts[i]!;
      const value = wanted[i]!;
      if (part.startsWith('{') && part.endsWith('}')) {
        let decoded: string;
        try {
          decoded = decodeURIComponent(value);
        } catch {
          decoded = value;
        }
        params[part.slice(1, -1)] = decoded;
      } else if (part === value) {
        score += 2 ** (parts.length - i);
      } else ok = false;
    }
    if (ok && (!best || score > best.score)) best = { found, score, pathParameters: params };
  }
  if (!best) return null;
  return { template: best.found.template, routes: [...best.found.routes], pathParameters: best.pathParameters };
}

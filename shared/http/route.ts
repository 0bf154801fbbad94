/**
 * A route as one declaration: the row that local mode, CDK, the authorizer,
 * the OpenAPI document and the route's own handler all read. A row names
 * what the route is (method, path, access, summary) and what it validates
 * (its schemas); its handler file names only the use case
 * (`endpoint(routes.vote, run)`, shared/http/endpoint.ts). What it answers
 * is kept apart (shared/http/answers.ts), so no function bundles it.
 *
 * A row is a plain object literal, its own top-level declaration, so a
 * function's bundle keeps its own row only (esbuild drops the others):
 * `export const vote = { id: 'polls.vote', ... } as const satisfies Route;`.
 * Its path is a plain string, and a call in it (`answerFailures(...)`) is
 * marked `@__PURE__`.
 */
import type * as z from 'zod/mini';
import type { ErrorPage } from './envelope.js';
import type { Mw } from './middleware.js';
import type { OwnershipCheck } from '../platform/ownership.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** public: no credentials; client: service token or that guild's API key; internal: service token only. */
export type Access = 'public' | 'client' | 'internal';

/** Whether the acting-member header is needed (`RouteSpec.actor`). */
export type ActorMode = 'required' | 'optional';

/** A success answer that is not the JSON envelope, as the OpenAPI document describes it. */
export interface RawAnswer {
  contentType: string;
  description: string;
  /** With `errorPage`: the pages it answers failures with, by status, as the OpenAPI document lists them. */
  failures?: Record<number, string>;
}

/**
 * What a route validates and answers, and the middlewares its function
 * needs: the one spec the endpoint factory (shared/http/endpoint.ts), the
 * OpenAPI document and the tests read. Each schema is a Zod object
 * (`zod/mini`).
 */
export interface RouteSpec {
  /** The query string's fields. */
  query?: z.ZodMiniType;
  /** The JSON body's fields. */
  body?: z.ZodMiniType;
  /** The path parameters (`{poll_id}` of `path`). */
  params?: z.ZodMiniType;
  /** `required`: 400 without the X-Acting-User-Id header. Otherwise the header is read when present. */
  actor?: ActorMode;
  /**
   * `answerFailures(sentence)` of shared/platform/interaction.ts: a failed
   * request carrying an interaction is also answered to the member. Only
   * the functions of rows naming it bundle the platform transport (each
   * function bundles its own row only).
   */
  answerFailures?: Mw;
  /** For a route answering pages for a person: the page of an error, with its status (never the JSON envelope). */
  errorPage?: ErrorPage;
  /**
   * `checkOwned` of shared/platform/ownership.ts, named by every row whose
   * schemas declare fields naming platform objects (`owned` in
   * shared/http/owned.ts); building its endpoint fails without it.
   */
  owned?: OwnershipCheck;
  /**
   * `use-case`: the use case keeps the call's `Idempotency-Key` itself, in
   * the items it writes (CONTRACT §16 lets the service rebuild a repeat's
   * answer from what the call left): the endpoint neither takes nor keeps
   * the key, and hands it over (`EndpointInput.key`). Unset: the endpoint
   * takes it before the use case and keeps its answer (two writes).
   */
  idempotency?: 'use-case';
}

export interface Route extends RouteSpec {
  /** `module.operation`, unique; CDK construct IDs are made from it. */
  id: string;
  method: Method;
  /** API Gateway resource path, `{param}` for path parameters, without the `/v1` prefix. */
  path: string;
  access: Access;
  /** One line for the OpenAPI document. */
  summary: string;
  /**
   * The handler file, relative to the repository root, when it is not the
   * one the id names (`polls.vote`: `functions/polls/vote.ts`; {@link fileOf}).
   */
  file?: string;
  /**
   * The export of the file the route's function calls, when not `handler`: a
   * file declaring the handlers of several routes (a module's basics) is
   * bundled once per export, so each function carries its own route only.
   */
  handler?: string;
}

/** The handler file of a route: the one it names, else `functions/<module>/<operation>.ts` of its id. */
export function fileOf(route: Entry): string {
  if (route.file) return route.file;
  const dot = route.id?.indexOf('.') ?? -1;
  if (!route.id || dot < 0) throw new Error(`A route needs a file or an id of the form module.operation (${route.id})`);
  return `functions/${route.id.slice(0, dot)}/${route.id.slice(dot + 1)}.ts`;
}

/** Where a request's input is read: its path parameters, query string or JSON body (the use case's input is named alike). */
export type InputPart = 'path' | 'query' | 'body';

/** The schema a spec declares for one part of the request (`params` for the path), or undefined. */
export function schemaOf(spec: Pick<RouteSpec, 'params' | 'query' | 'body'>, part: InputPart): z.ZodMiniType | undefined {
  return part === 'path' ? spec.params : spec[part];
}

/** Each route's access, keyed `METHOD path`: what the authorizer reads (functions/auth/access.ts). */
export function accessTable(routes: readonly Pick<Route, 'method' | 'path' | 'access'>[]): Readonly<Record<string, Access>> {
  return Object.fromEntries(routes.map((route) => [`${route.method} ${route.path}`, route.access]));
}

/** What a route's function is built from: its file, and the export called when not `handler`. One bundle per entry. */
export type Entry = Partial<Pick<Route, 'id' | 'file' | 'handler'>>;

/** An entry as one string, `file` or `file#export`: what builds, bundle folders and CDK assets are keyed by. */
export const entryOf = (entry: Entry): string => (entry.handler ? `${fileOf(entry)}#${entry.handler}` : fileOf(entry));

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
const indexed = /* @__PURE__ */ new WeakMap<readonly Route[], Template[]>();

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

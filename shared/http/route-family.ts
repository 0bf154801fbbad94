import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { notFound } from '../errors.js';
import { type RowInput, endpoint, type Handler } from './endpoint.js';
import { errorResponse } from './envelope.js';
import type { Route, RouteSpec } from './route.js';

/** What a family row is besides its schemas: known without building them. */
type RowHead = Omit<Route, keyof RouteSpec>;

/** The schemas a row may declare: each family row answers all of them (undefined where its spec has none). */
const SPEC_KEYS = ['query', 'body', 'params', 'actor', 'answerFailures', 'errorPage', 'owned'] as const satisfies readonly (keyof RouteSpec)[];

/**
 * Routes of one shape declared from a table (the statistic families, the
 * socials kinds, each module's diagnostics): one row per member, served by
 * one handler file (`familyEndpoint`). Every route still gets its own Lambda
 * function from that bundle. A family's answers are listed by id in its
 * module's `answers.ts`, as every route's are (shared/http/answers.ts).
 *
 * A family is declared as a plain object literal, as a row is, so a bundle
 * not serving it leaves it out:
 * `export const fetchStats = { members: FAMILIES, row: (family) => ({ ... }), spec: (family) => ({ ... }) } satisfies RouteFamily<Family>;`
 * `row` says what each member's route is (id, method, path, access,
 * summary, file), `spec` its schemas; members computed by calls go in a
 * marked declaration of their own (shared/built.ts).
 */
export interface RouteFamily<M, S extends RouteSpec = RouteSpec> {
  members: readonly M[];
  row: (member: M) => RowHead;
  spec: (member: M) => S;
}

const rowsByFamily = new WeakMap<object, unknown[]>();

/**
 * A family's rows, one per member, in the members' order, as the route
 * table lists them; the same objects at each call. A row's schemas are
 * built when one of them is first read, so a function's cold start builds
 * its own route's only, not the whole family's (the statistic families'
 * fetch queries take a fifth of a second all together).
 */
export function rowsOf<M, S extends RouteSpec>(family: RouteFamily<M, S>): (RowHead & S)[] {
  let rows = rowsByFamily.get(family) as (RowHead & S)[] | undefined;
  if (!rows) {
    rows = family.members.map((member) => {
      let spec: S | undefined;
      const built = () => (spec ??= family.spec(member));
      const getters = Object.fromEntries(SPEC_KEYS.map((key) => [key, { get: () => built()[key], enumerable: true }]));
      return Object.defineProperties({ ...family.row(member) }, getters) as RowHead & S;
    });
    rowsByFamily.set(family, rows);
  }
  return rows;
}

const keyOf = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/**
 * The handler of every route of a family: at run time it picks the row by
 * the request's method and resource path, and serves it with the member's
 * use case, as `endpoint(row, run)` would. Each route's endpoint is built on
 * first use.
 */
export function familyEndpoint<M, S extends RouteSpec>(
  family: RouteFamily<M, S>,
  run: (member: M) => (input: RowInput<RowHead & S>) => Promise<object> | object,
): Handler {
  const rows = rowsOf(family);
  const at = new Map(rows.map((row, index) => [keyOf(row.method, row.path), index]));
  const built = new Map<number, Handler>();
  return async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const method = event.httpMethod === 'HEAD' ? 'GET' : (event.httpMethod ?? '');
    const index = at.get(keyOf(method, event.resource ?? ''));
    // A deployment wired this bundle to a route it does not serve: answer as for an unknown route.
    if (index === undefined) return errorResponse(notFound(`No route ${method} ${event.resource}.`));
    let handler = built.get(index);
    // A member's schemas are built from the member at run time, so its answer is typed by the family's common shape only, not checked here.
    if (!handler) built.set(index, (handler = endpoint<RouteSpec & { id: string }>(rows[index]!, run(family.members[index]!))));
    return handler(event, context);
  };
}

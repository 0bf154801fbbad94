/**
 * How the route table is laid out over CloudFormation stacks, as plain data
 * (no CDK here, so it is cheap to test and to reason about).
 *
 * A stack holds at most 500 resources and each route costs three (function,
 * permission, method) plus its share of API path resources and 405 mocks.
 * Every route group gets one nested stack; a group too big for the budget is
 * split by path subtree: the biggest subtrees are peeled off into their own
 * nested stacks until the rest fits. Stack IDs name the subtree
 * (`serverstats-stats-modules`), so a route only changes stack when its
 * subtree crosses the budget, never because another route was added before
 * it in a list. (Moving an API method between stacks fails on deploy: the new
 * stack creates it before the old one deletes it.)
 */
import { methodNotAllowed } from '#shared/http/envelope.js';
import type { Method, Route } from '#shared/http/route.js';

/** Resources per route: the function, its invoke permission, its API method. */
export const RESOURCES_PER_ROUTE = 3;
/** Per nested stack: the module role, its policy, its log group, CDK metadata. */
export const RESOURCES_PER_STACK = 4;
/** Split a group when its estimate passes this; leaves headroom under the hard limit of 500. */
export const DEFAULT_STACK_BUDGET = 400;
/** CloudFormation's hard limit of resources per stack (nested stacks included). */
export const STACK_RESOURCE_LIMIT = 500;
/** API Gateway's default quota of resources (paths) per REST API. */
export const API_RESOURCE_QUOTA = 300;

/** One nested stack's share of the routes. */
export interface StackPlan {
  /** Construct ID of the nested stack: the group, then the subtree it holds. */
  id: string;
  /** The route group (module) the routes belong to; the IAM role and log group are per group. */
  group: string;
  /** The first stack of its group: it owns the group's role and log group. */
  primary: boolean;
  routes: Route[];
}

/** The API Gateway resource path of a route: `/modules/polls/` is served by resource `/modules/polls`. */
export function resourcePathOf(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);
const pathOf = (segments: readonly string[]) => `/${segments.join('/')}`;

/** Every API resource path a set of routes needs (ancestors included, the root `/` excluded), sorted. */
export function apiResourcePaths(routes: readonly Route[]): string[] {
  const paths = new Set<string>();
  for (const route of routes) {
    const segments = segmentsOf(route.path);
    for (let i = 1; i <= segments.length; i++) paths.add(pathOf(segments.slice(0, i)));
  }
  return [...paths].sort();
}

/** Resource path -> the methods served there, sorted (the `Allow` header of the 405 mock). */
export function methodsByPath(routes: readonly Route[]): Map<string, Method[]> {
  const byPath = new Map<string, Method[]>();
  for (const route of routes) {
    const path = resourcePathOf(route.path);
    byPath.set(path, [...(byPath.get(path) ?? []), route.method].sort());
  }
  return byPath;
}

/**
 * Resource path -> the 405 page of a path whose routes answer pages (their
 * `errorPage`, behaviour §13), the method left to API Gateway's
 * `$context.httpMethod`.
 */
export function methodNotAllowedPages(routes: readonly Route[]): Map<string, string> {
  const pages = new Map<string, string>();
  for (const [path, methods] of methodsByPath(routes)) {
    const errorPage = routes.find((route) => resourcePathOf(route.path) === path && route.errorPage)?.errorPage;
    if (errorPage) pages.set(path, errorPage(methodNotAllowed('$context.httpMethod', path, methods)).body);
  }
  return pages;
}

/** An upper bound of the resources a stack holding these routes needs. */
export function estimateResources(routes: readonly Route[]): number {
  return RESOURCES_PER_STACK + RESOURCES_PER_ROUTE * routes.length + apiResourcePaths(routes).length + methodsByPath(routes).size;
}

/** Throws on what API Gateway would reject at deploy time: duplicate method+path, two `{params}` under one parent. */
export function checkRoutes(routes: readonly Route[]): void {
  const seen = new Map<string, string>();
  const ids = new Set<string>();
  for (const route of routes) {
    if (ids.has(route.id)) throw new Error(`Route id ${route.id} is used twice`);
    ids.add(route.id);
    const key = `${route.method} ${resourcePathOf(route.path)}`;
    const other = seen.get(key);
    if (other) throw new Error(`Routes ${other} and ${route.id} both serve ${key}`);
    seen.set(key, route.id);
  }
  const variables = new Map<string, string>();
  for (const path of apiResourcePaths(routes)) {
    const segments = segmentsOf(path);
    const last = segments.at(-1)!;
    if (!last.startsWith('{')) continue;
    const parent = pathOf(segments.slice(0, -1));
    const other = variables.get(parent);
    if (other && other !== last) throw new Error(`${parent} has two path parameters, ${other} and ${last}; API Gateway allows one`);
    variables.set(parent, last);
  }
}

const idPart = (segment: string) => segment.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '');

/**
 * Splits each group into nested stacks of at most `budget` estimated
 * resources. Groups keep their declaration order; within a group the stack
 * holding the group's own prefix comes first and owns the role and log group.
 */
export function planStacks(groups: Readonly<Record<string, readonly Route[]>>, budget: number = DEFAULT_STACK_BUDGET): StackPlan[] {
  const plans: StackPlan[] = [];
  for (const [group, routes] of Object.entries(groups)) {
    if (routes.length === 0) continue;
    const prefix = commonPrefix(routes.map((r) => segmentsOf(r.path)));
    const parts = split(prefix, routes, budget).filter((part) => part.routes.length > 0);
    parts.forEach((part, index) => {
      const suffix = part.prefix.slice(prefix.length).map(idPart);
      plans.push({ id: [group, ...suffix].join('-'), group, primary: index === 0, routes: part.routes });
    });
  }
  return plans;
}

function commonPrefix(paths: readonly string[][]): string[] {
  const first = paths[0] ?? [];
  let length = first.length;
  for (const path of paths) {
    let i = 0;
    while (i < length && path[i] === first[i]) i++;
    length = i;
  }
  // A route sitting exactly on the prefix keeps it; otherwise the prefix is the shared parent.
  return first.slice(0, length);
}

function split(prefix: string[], routes: readonly Route[], budget: number): { prefix: string[]; routes: Route[] }[] {
  if (estimateResources(routes) <= budget) return [{ prefix, routes: [...routes] }];
  const children = new Map<string, Route[]>();
  for (const route of routes) {
    const next = segmentsOf(route.path)[prefix.length];
    if (next !== undefined) children.set(next, [...(children.get(next) ?? []), route]);
  }
  // Biggest subtrees first (ties by name) so the result depends only on the routes, not their order.
  const ordered = [...children].sort(([a, ra], [b, rb]) => estimateResources(rb) - estimateResources(ra) || a.localeCompare(b));
  let remaining = [...routes];
  const peeled: { prefix: string[]; routes: Route[] }[] = [];
  for (const [segment, childRoutes] of ordered) {
    if (estimateResources(remaining) <= budget) break;
    peeled.push(...split([...prefix, segment], childRoutes, budget));
    remaining = remaining.filter((route) => !childRoutes.includes(route));
  }
  if (estimateResources(remaining) > budget) {
    throw new Error(`The routes directly under ${pathOf(prefix)} alone exceed the stack budget of ${budget} resources`);
  }
  return [{ prefix, routes: remaining }, ...peeled];
}

/**
 * Which stack creates each API path resource: the one stack whose routes are
 * all at or below it, or `null` (the root stack) when routes of several
 * stacks hang below it (`/modules`, `/modules/serverstats`). A resource is
 * thus created exactly once, as close to its methods as possible.
 */
export function pathOwners(plans: readonly StackPlan[]): Map<string, string | null> {
  const users = new Map<string, Set<string>>();
  for (const plan of plans) {
    for (const path of apiResourcePaths(plan.routes)) {
      users.set(path, (users.get(path) ?? new Set()).add(plan.id));
    }
  }
  return new Map([...users].map(([path, ids]) => [path, ids.size === 1 ? [...ids][0]! : null]));
}

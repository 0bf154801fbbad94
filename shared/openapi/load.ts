import { loadSpec } from '../http/load-handler.js';
import type { Route, RouteSpec } from '../http/route.js';
import { openApiDocument } from './document.js';

/** Every route's spec, as its row declares it. */
export async function loadSpecs(routes: readonly Route[]): Promise<Map<string, RouteSpec>> {
  const specs = new Map<string, RouteSpec>();
  for (const route of routes) specs.set(route.id, await loadSpec(route));
  return specs;
}

/** The document of these routes, from their rows' schemas. */
export async function loadOpenApiDocument(routes: readonly Route[]): Promise<Record<string, unknown>> {
  return openApiDocument(routes, await loadSpecs(routes));
}

import type { EndpointSpec } from '../http/endpoint.js';
import { loadHandler } from '../http/load-handler.js';
import type { Route } from '../http/route.js';
import { openApiDocument } from './document.js';

/** Every route's spec, read from its handler as Lambda would load it. */
export async function loadSpecs(routes: readonly Route[]): Promise<Map<string, EndpointSpec>> {
  const specs = new Map<string, EndpointSpec>();
  for (const route of routes) specs.set(route.id, (await loadHandler(route)).spec);
  return specs;
}

/** The document of these routes, from their handlers' own schemas. */
export async function loadOpenApiDocument(routes: readonly Route[]): Promise<Record<string, unknown>> {
  return openApiDocument(routes, await loadSpecs(routes));
}

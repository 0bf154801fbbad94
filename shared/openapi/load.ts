import { loadSpec } from '../http/load-handler.js';
import type { AnsweredSpec } from '../http/answers.js';
import type { Route } from '../http/route.js';
import { openApiDocument } from './document.js';

/** Every route's spec, as its row declares it. */
export async function loadSpecs(routes: readonly Route[]): Promise<Map<string, AnsweredSpec>> {
  const specs = new Map<string, AnsweredSpec>();
  for (const route of routes) specs.set(route.id, await loadSpec(route));
  return specs;
}

/** The document of these routes, from their rows' schemas and their answers. */
export async function loadOpenApiDocument(routes: readonly Route[]): Promise<Record<string, unknown>> {
  return openApiDocument(routes, await loadSpecs(routes));
}

import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EndpointSpec, Handler } from './endpoint.js';
import { type Entry, type Route, entryOf, fileOf, specOf, splitEntry } from './route.js';
import type { FamilyHandler } from './route-family.js';

/** The repository root, where route `file`s are relative to. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const loaded = new Map<string, Promise<Handler>>();

function importHandler(entry: string): Promise<Handler> {
  let handler = loaded.get(entry);
  if (!handler) {
    const { file, handler: name } = splitEntry(entry);
    handler = import(pathToFileURL(join(ROOT, file)).href).then((mod: Record<string, Handler | undefined>) => {
      const exported = mod[name];
      if (typeof exported !== 'function') throw new Error(`${file} exports no ${name}`);
      return exported;
    });
    loaded.set(entry, handler);
  }
  return handler;
}

/**
 * The handler of a route's file, imported once, as Lambda would load its
 * bundle. Given the route's method and path, its `spec` is that route's own
 * (a file serving a family of routes has one spec per route).
 */
export async function loadHandler(route: Entry & Partial<Pick<Route, 'method' | 'path'>>): Promise<Handler> {
  const handler = await importHandler(entryOf(route));
  const family = handler as Partial<FamilyHandler>;
  if (!family.specFor || !route.method || !route.path) return handler;
  const spec = family.specFor({ method: route.method, path: route.path });
  if (!spec) throw new Error(`${fileOf(route)} serves no route ${route.method} ${route.path}`);
  return Object.assign((...args: Parameters<Handler>) => handler(...args), { spec });
}

/**
 * A route's spec, as its row declares it; for a row whose handler still
 * declares its own (a module's basics, a route family), read from the
 * handler. What the OpenAPI document and the tests read.
 */
export async function loadSpec(route: Route): Promise<EndpointSpec> {
  return specOf(route) ?? (await loadHandler(route)).spec;
}

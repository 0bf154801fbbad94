import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Handler } from './endpoint.js';
import type { Route } from './route.js';

/** The repository root, where route `file`s are relative to. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const loaded = new Map<string, Promise<Handler>>();

/** The handler of a route's file, imported once, as Lambda would load its bundle. */
export function loadHandler(route: Pick<Route, 'file'>): Promise<Handler> {
  let handler = loaded.get(route.file);
  if (!handler) {
    handler = import(pathToFileURL(join(ROOT, route.file)).href).then((mod: { handler?: Handler }) => {
      if (typeof mod.handler !== 'function') throw new Error(`${route.file} exports no handler`);
      return mod.handler;
    });
    loaded.set(route.file, handler);
  }
  return handler;
}

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { endpoint, type EndpointSpec } from '../../shared/http/endpoint.js';
import { RawBody } from '../../shared/http/envelope.js';
import { loadHandler } from '../../shared/http/load-handler.js';
import { openApiDocument } from '../../shared/openapi/document.js';
import { routes } from '../routes.js';

/**
 * The document is generated from the handlers' own schemas. A deployed bundle
 * carries it beside itself (written by the build from the same generator);
 * local mode generates it on first request by loading every handler.
 */
let documentText: Promise<string> | undefined;

async function generate(): Promise<string> {
  const built = fileURLToPath(new URL('./openapi.json', import.meta.url));
  if (existsSync(built)) return readFileSync(built, 'utf8');
  const specs = new Map<string, EndpointSpec>();
  for (const route of routes) specs.set(route.id, (await loadHandler(route)).spec);
  return JSON.stringify(openApiDocument(routes, specs));
}

export const handler = endpoint({}, async () => {
  documentText ??= generate().catch((error: unknown) => {
    documentText = undefined;
    throw error;
  });
  return new RawBody('application/json; charset=utf-8', await documentText);
});

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { endpoint } from '#shared/http/endpoint.js';
import { cacheableText, etagOf } from '#shared/http/caching.js';
import * as routes from './routes.js';

/**
 * The document is generated from the route rows' schemas. A deployed bundle
 * carries it beside itself (written by the build from the same generator);
 * local mode generates it on first request from the rows.
 */
let documentText: Promise<{ text: string; etag: string }> | undefined;

/**
 * How long a client keeps the document before asking again (then answered
 * 304 while it is unchanged): it changes only with a deployment, and the
 * dashboard reads it on every guild page.
 */
const MAX_AGE_SECONDS = 300;

/**
 * The route table, read only where no document was built beside the
 * function (local mode). Named by a value, not a literal, so the build does
 * not bundle it: its rows hold every route's schemas.
 */
const ROUTE_TABLE = '#functions/routes.js';

async function generate(): Promise<string> {
  const built = fileURLToPath(new URL('./openapi.json', import.meta.url));
  if (existsSync(built)) return readFileSync(built, 'utf8');
  const [{ routes: allRoutes }, { loadOpenApiDocument }] = await Promise.all([
    import(ROUTE_TABLE) as Promise<typeof import('#functions/routes.js')>,
    import('#shared/openapi/load.js'),
  ]);
  return JSON.stringify(await loadOpenApiDocument(allRoutes));
}

export const handler = endpoint(routes.openapi, async ({ header }) => {
  documentText ??= generate()
    .then((text) => ({ text, etag: etagOf(text) }))
    .catch((error: unknown) => {
      documentText = undefined;
      throw error;
    });
  const { text, etag } = await documentText;
  return cacheableText('application/json; charset=utf-8', text, etag, header('if-none-match'), MAX_AGE_SECONDS);
});

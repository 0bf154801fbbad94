import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { endpoint } from '#shared/http/endpoint.js';
import { RawBody } from '#shared/http/envelope.js';
import * as routes from './routes.js';

/** The renderer's script file: beside a deployed bundle (written by the build), else from the installed `redoc` package. */
export const REDOC_FILE = 'redoc.standalone.js';

/** The renderer's one outside asset, its branding logo, and what stands for it so the page fetches nothing from elsewhere. */
const OUTSIDE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const INLINE_LOGO = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%2216%22 height=%2216%22/%3E';

/** The installed renderer, made self-contained (the build copies this beside the deployed bundle). */
export function offlineRenderer(source: string): string {
  return source.split(OUTSIDE_LOGO).join(INLINE_LOGO);
}

let script: string | undefined;

function load(): string {
  const built = fileURLToPath(new URL(`./${REDOC_FILE}`, import.meta.url));
  if (existsSync(built)) return readFileSync(built, 'utf8');
  return offlineRenderer(readFileSync(createRequire(import.meta.url).resolve(`redoc/bundles/${REDOC_FILE}`), 'utf8'));
}

/** The documentation page's renderer (Redoc), served by the service itself so /docs works offline. */
export const handler = endpoint(routes.renderer, () => {
  script ??= load();
  return new RawBody('application/javascript; charset=utf-8', script, { 'cache-control': 'public, max-age=86400' });
});

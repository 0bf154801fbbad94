import type { Route } from '#shared/http/route.js';

export const livez = { id: 'health.livez', method: 'GET', path: '/livez', access: 'public', summary: 'The process is up' } as const satisfies Route;

export const readyz = {
  id: 'health.readyz',
  method: 'GET',
  path: '/readyz',
  access: 'public',
  summary: 'The table is reachable (503 when not)',
} as const satisfies Route;

export const openapi = {
  id: 'docs.openapi',
  method: 'GET',
  path: '/openapi.json',
  access: 'public',
  file: 'functions/health/openapi.ts',
  summary: 'This API as an OpenAPI 3.1 document',
} as const satisfies Route;

export const page = {
  id: 'docs.page',
  method: 'GET',
  path: '/docs',
  access: 'public',
  file: 'functions/health/docs.ts',
  summary: 'A page rendering the OpenAPI document',
} as const satisfies Route;

export const renderer = {
  id: 'docs.renderer',
  method: 'GET',
  path: '/docs/redoc.standalone.js',
  access: 'public',
  file: 'functions/health/docs-asset.ts',
  summary: "The documentation page's renderer (Redoc)",
} as const satisfies Route;

export const routes: Route[] = [livez, readyz, openapi, page, renderer];

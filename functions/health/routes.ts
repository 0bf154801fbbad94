import type { Route } from '#shared/http/route.js';

export const routes: Route[] = [
  { id: 'health.livez', method: 'GET', path: '/livez', access: 'public', file: 'functions/health/livez.ts', summary: 'The process is up' },
  {
    id: 'health.readyz',
    method: 'GET',
    path: '/readyz',
    access: 'public',
    file: 'functions/health/readyz.ts',
    summary: 'The table is reachable (503 when not)',
  },
  {
    id: 'docs.openapi',
    method: 'GET',
    path: '/openapi.json',
    access: 'public',
    file: 'functions/health/openapi.ts',
    summary: 'This API as an OpenAPI 3.1 document',
  },
  { id: 'docs.page', method: 'GET', path: '/docs', access: 'public', file: 'functions/health/docs.ts', summary: 'A page rendering the OpenAPI document' },
  {
    id: 'docs.renderer',
    method: 'GET',
    path: '/docs/redoc.standalone.js',
    access: 'public',
    file: 'functions/health/docs-asset.ts',
    summary: "The documentation page's renderer (Redoc)",
  },
];

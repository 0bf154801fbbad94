import { type Route, route } from '#shared/http/route.js';
import { statusAnswer } from './schemas.js';

export const livez = route({ id: 'health.livez', method: 'GET', path: '/livez', access: 'public', summary: 'The process is up', response: statusAnswer });

export const readyz = route({
  id: 'health.readyz',
  method: 'GET',
  path: '/readyz',
  access: 'public',
  summary: 'The table is reachable (503 when not)',
  response: statusAnswer,
});

export const openapi = route({
  id: 'docs.openapi',
  method: 'GET',
  path: '/openapi.json',
  access: 'public',
  file: 'functions/health/openapi.ts',
  summary: 'This API as an OpenAPI 3.1 document',
  response: { contentType: 'application/json', description: 'This OpenAPI 3.1 document' },
});

export const page = route({
  id: 'docs.page',
  method: 'GET',
  path: '/docs',
  access: 'public',
  file: 'functions/health/docs.ts',
  summary: 'A page rendering the OpenAPI document',
  response: { contentType: 'text/html; charset=utf-8', description: 'This documentation page' },
});

export const renderer = route({
  id: 'docs.renderer',
  method: 'GET',
  path: '/docs/redoc.standalone.js',
  access: 'public',
  file: 'functions/health/docs-asset.ts',
  summary: "The documentation page's renderer (Redoc)",
  response: { contentType: 'application/javascript', description: "The documentation page's renderer (Redoc)" },
});

export const routes: Route[] = [livez, readyz, openapi, page, renderer];

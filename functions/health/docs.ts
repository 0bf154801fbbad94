import { endpoint } from '#shared/http/endpoint.js';
import { RawBody } from '#shared/http/envelope.js';
import { docsPage } from './docs-page.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.page, () => new RawBody('text/html; charset=utf-8', docsPage, { 'cache-control': 'public, max-age=300' }));

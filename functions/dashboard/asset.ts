import { endpoint } from '#shared/http/endpoint.js';
import { RawBody } from '#shared/http/envelope.js';
import { SCRIPT, STYLE } from './assets.js';
import * as routes from './routes.js';

/** Public: the dashboard's script and style sheet, bundled into this function (nothing is fetched from elsewhere). */
export const handler = endpoint(routes.asset, ({ path }) =>
  path.asset === 'dashboard.js'
    ? new RawBody('text/javascript; charset=utf-8', SCRIPT, { 'cache-control': 'public, max-age=300' })
    : new RawBody('text/css; charset=utf-8', STYLE, { 'cache-control': 'public, max-age=300' }),
);

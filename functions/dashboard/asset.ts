import { cacheableText, etagOf } from '#shared/http/caching.js';
import { endpoint } from '#shared/http/endpoint.js';
import { SCRIPT, STYLE } from './assets.js';
import * as routes from './routes.js';

const ASSETS = {
  'dashboard.js': { type: 'text/javascript; charset=utf-8', text: SCRIPT, etag: etagOf(SCRIPT) },
  'dashboard.css': { type: 'text/css; charset=utf-8', text: STYLE, etag: etagOf(STYLE) },
};

/**
 * Public: the dashboard's script and style sheet, bundled into this function
 * (nothing is fetched from elsewhere); kept 5 minutes, then revalidated by
 * their tag.
 */
export const handler = endpoint(routes.asset, ({ path, header }) => {
  const asset = ASSETS[path.asset];
  return cacheableText(asset.type, asset.text, asset.etag, header('if-none-match'), 300);
});

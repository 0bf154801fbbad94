import { endpoint } from '../../shared/http/endpoint.js';
import { RawBody } from '../../shared/http/envelope.js';
import { donePage, refusedPage } from './page.js';
import { WebPath, WebQuery } from './schemas.js';
import { entryOfToken, verifyOnTheWeb } from './verifier.js';

const HTML = 'text/html; charset=utf-8';
const PRIVATE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/** Public: the page's form posts here; verifies as a WebLogin and uses the token up. */
export const handler = endpoint({ path: WebPath, query: WebQuery, response: { contentType: HTML, description: 'The page saying the member is verified' } }, async ({ path, query }) => {
  const found = await entryOfToken(path.verifier_id, query.token);
  if (!found) return new RawBody(HTML, refusedPage(), PRIVATE, 403);
  return new RawBody(HTML, donePage(await verifyOnTheWeb(found)), PRIVATE);
});

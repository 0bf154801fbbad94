import { endpoint } from '../../shared/http/endpoint.js';
import { RawBody } from '../../shared/http/envelope.js';
import { promptPage, refusedPage } from './page.js';
import { WebPath, WebQuery } from './schemas.js';
import { entryOfToken, webPageUrl } from './verifier.js';

const HTML = 'text/html; charset=utf-8';
const PRIVATE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/** Public: the type 3 verification page; its one-time token is the credential (a wrong or used one: 403). */
export const handler = endpoint({ path: WebPath, query: WebQuery, response: { contentType: HTML, description: 'The verification page' } }, async ({ path, query }) => {
  const found = await entryOfToken(path.verifier_id, query.token);
  if (!found) return new RawBody(HTML, refusedPage(), PRIVATE, 403);
  return new RawBody(HTML, promptPage(webPageUrl(path.verifier_id, query.token!)), PRIVATE);
});

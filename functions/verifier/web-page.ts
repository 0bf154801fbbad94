import { endpoint } from '#shared/http/endpoint.js';
import { promptPage } from './page.js';
import { entryOfToken, webPageUrl } from './verifier.js';
import { page, refused } from './web-answers.js';
import * as routes from './routes.js';

/** Public: the type 3 verification page; its one-time token is the credential (a wrong, expired, used or replaced one: 403). */
export const handler = endpoint(routes.webPage, async ({ path, query }) => {
  const found = await entryOfToken(path.verifier_id, query.token);
  return found ? page(promptPage(webPageUrl(path.verifier_id, query.token!))) : refused();
});

import { endpoint } from '#shared/http/endpoint.js';
import { promptPage } from './page.js';
import { WebPath, WebQuery } from './schemas.js';
import { entryOfToken, webPageUrl } from './verifier.js';
import { page, refused, webAnswer, webErrorPage } from './web-answers.js';

/** Public: the type 3 verification page; its one-time token is the credential (a wrong, expired, used or replaced one: 403). */
export const handler = endpoint(
  { path: WebPath, query: WebQuery, errorPage: webErrorPage, response: webAnswer('The verification page') },
  async ({ path, query }) => {
    const found = await entryOfToken(path.verifier_id, query.token);
    return found ? page(promptPage(webPageUrl(path.verifier_id, query.token!))) : refused();
  },
);

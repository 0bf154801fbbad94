import { endpoint } from '#shared/http/endpoint.js';
import { donePage } from './page.js';
import { WebPath, WebQuery } from './schemas.js';
import { entryOfToken, verifyOnTheWeb } from './verifier.js';
import { page, refused, webAnswer, webErrorPage } from './web-answers.js';

/** Public: the page's form posts here; verifies as a WebLogin and uses the token up (a second answer at once: 403). */
export const handler = endpoint(
  { path: WebPath, query: WebQuery, errorPage: webErrorPage, response: webAnswer('The page saying the member is verified') },
  async ({ path, query }) => {
    const found = await entryOfToken(path.verifier_id, query.token);
    const completed = found && (await verifyOnTheWeb(found));
    return completed ? page(donePage(completed)) : refused();
  },
);

import { endpoint } from '#shared/http/endpoint.js';
import { donePage } from './page.js';
import { entryOfToken, verifyOnTheWeb } from './verifier.js';
import { page, refused } from './web-answers.js';
import * as routes from './routes.js';

/** Public: the page's form posts here; verifies as a WebLogin and uses the token up (a second answer at once: 403). */
export const handler = endpoint(routes.webVerify, async ({ path, query }) => {
  const found = await entryOfToken(path.verifier_id, query.token);
  const completed = found && (await verifyOnTheWeb(found));
  return completed ? page(donePage(completed)) : refused();
});

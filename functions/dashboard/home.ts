import { sessionGuilds } from '#shared/auth/oauth-client.js';
import { csrfTokenOf, freshGuilds, publicBase, sessionOfCookie } from '#shared/auth/session.js';
import { endpoint } from '#shared/http/endpoint.js';
import { page } from './page-answers.js';
import { basePath, guildsPage, signInPage } from './pages.js';
import * as routes from './routes.js';

/** Public: the member's guilds, as the platform said at most 5 minutes ago; the sign-in page without a session. */
export const handler = endpoint(routes.home, async ({ header }) => {
  const base = basePath(publicBase());
  const found = await sessionOfCookie(header('cookie'));
  if (!found) return page(signInPage(base));
  const guilds = await freshGuilds(found.sessionId, found.session, sessionGuilds);
  return page(guildsPage(base, found.session.username, guilds, await csrfTokenOf(found.sessionId)));
});

import { oauthClient } from '#shared/auth/oauth-client.js';
import { csrfMatches, endSession, publicBase, SESSION_COOKIE, sessionOfCookie, setCookie } from '#shared/auth/session.js';
import { forbidden } from '#shared/errors.js';
import { endpoint } from '#shared/http/endpoint.js';
import { redirect } from './page-answers.js';
import { basePath } from './pages.js';
import * as routes from './routes.js';

/**
 * Public: ends the session the cookie names, with its CSRF token (the
 * `X-CSRF-Token` header, or `csrf` in the query for the page's plain form);
 * the session's item is deleted, so the cookie stops working at once, and
 * the platform token is revoked.
 */
export const handler = endpoint(routes.logout, async ({ header, query }) => {
  const found = await sessionOfCookie(header('cookie'));
  const home = redirect(`${basePath(publicBase())}/dashboard`, 303, setCookie(SESSION_COOKIE, '', 0));
  if (!found) return home;
  const csrf = header('x-csrf-token') ?? query.csrf;
  if (!(await csrfMatches(found.sessionId, csrf)))
    throw forbidden('Signing out needs the CSRF token of your session; open the dashboard and use its Sign out button.');
  const token = await endSession(found.sessionId);
  if (token) await oauthClient().revoke(token);
  return home;
});

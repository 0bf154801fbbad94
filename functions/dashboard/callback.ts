import { oauthClient, sessionGuilds } from '#shared/auth/oauth-client.js';
import { publicBase, startSession, takeLogin } from '#shared/auth/session.js';
import { badRequest } from '#shared/errors.js';
import { endpoint } from '#shared/http/endpoint.js';
import { basePath } from './pages.js';
import { redirect } from './page-answers.js';
import * as routes from './routes.js';

const SIGN_IN_AGAIN = 'Open the dashboard and sign in again.';

/**
 * Public: the platform sends the member back here. The `state` must be the
 * one this browser's login cookie holds and not taken before (a replay is
 * the 400 page, as is a code the platform refuses); then the code is
 * exchanged, the member and their guilds are read, and a session starts.
 */
export const handler = endpoint(routes.callback, async ({ query, header }) => {
  if (query.error) throw badRequest(`The platform did not sign you in (${query.error.slice(0, 100)}). ${SIGN_IN_AGAIN}`);
  if (!(await takeLogin(query.state, header('cookie')))) {
    throw badRequest(`This sign-in link is not this browser's, was used already or has expired. ${SIGN_IN_AGAIN}`);
  }
  if (!query.code) throw badRequest(`The platform sent no authorization code. ${SIGN_IN_AGAIN}`);
  const client = oauthClient();
  const accessToken = await client.exchangeCode(query.code);
  if (!accessToken) throw badRequest(`The platform refused this sign-in's code (wrong, used or expired). ${SIGN_IN_AGAIN}`);
  const [user, guilds] = await Promise.all([client.currentUser(accessToken), sessionGuilds(accessToken)]);
  const { cookie } = await startSession({ user: { id: String(user.id), username: String(user.username) }, guilds, accessToken });
  // The login cookie is left to expire: its state is taken, so it can start nothing again.
  return redirect(`${basePath(publicBase())}/dashboard`, 302, cookie);
});

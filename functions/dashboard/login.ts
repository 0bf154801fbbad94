import { beginLogin } from '#shared/auth/session.js';
import { AppError } from '#shared/errors.js';
import { endpoint } from '#shared/http/endpoint.js';
import { platformOAuth2Config } from '#shared/platform/oauth2-config.js';
import { redirect } from './page-answers.js';
import * as routes from './routes.js';

/** Public: starts a sign-in; the `state` is remembered once and bound to this browser by a short-lived signed cookie. */
export const handler = endpoint(routes.login, async () => {
  const config = await platformOAuth2Config();
  if (!config) {
    throw new AppError(
      'PlatformApiInteractionError',
      "The dashboard cannot send you to the platform's sign-in: PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET are not configured.",
    );
  }
  const { state, cookie } = await beginLogin();
  const query = new URLSearchParams({ response_type: 'code', client_id: config.clientId, scope: 'identify guilds', state, redirect_uri: config.redirectUri });
  return redirect(`${config.authorizeUrl}?${query}`, 302, cookie);
});

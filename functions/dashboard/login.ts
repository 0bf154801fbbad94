import { beginLogin, publicBase } from '#shared/auth/session.js';
import { authorizeUrl } from '#shared/auth/oauth-client.js';
import { AppError } from '#shared/errors.js';
import { endpoint } from '#shared/http/endpoint.js';
import { redirect } from './answers.js';
import * as routes from './routes.js';

/** Where the platform sends the member back. */
export const callbackUrl = () => `${publicBase()}/dashboard/callback`;

/** Public: starts a sign-in; the `state` is remembered once and bound to this browser by a short-lived signed cookie. */
export const handler = endpoint(routes.login, async () => {
  const clientId = process.env.PLATFORM_CLIENT_ID;
  if (!clientId)
    throw new AppError('PlatformApiInteractionError', "The dashboard cannot send you to the platform's sign-in: PLATFORM_CLIENT_ID is not configured.");
  const { state, cookie } = await beginLogin();
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, scope: 'identify guilds', state, redirect_uri: callbackUrl() });
  return redirect(`${authorizeUrl()}?${query}`, 302, cookie);
});

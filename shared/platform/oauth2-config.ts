/**
 * The service's OAuth2 registration on the platform, for the dashboard's
 * sign-in (CONTRACT 19): the application's client ID (`PLATFORM_CLIENT_ID`,
 * plain configuration) and secret (`PLATFORM_CLIENT_SECRET` in local mode,
 * or the Secrets Manager secret named by `PLATFORM_CLIENT_SECRET_SECRET_ARN`
 * in AWS), and the platform's OAuth2 endpoints, found beside the API base
 * `PLATFORM_API_BASE_URL` as the platform lays them out
 * (`https://discord.com/api/v10` -> `https://discord.com/oauth2/authorize`
 * and `https://discord.com/api/v10/oauth2/token`; the sandbox has the same
 * layout).
 */
import { configuredSecret } from '../secrets.js';
import { DEFAULT_PLATFORM_BASE_URL } from './transport.js';

/** Where the dashboard's sign-in goes, and as whom. */
export interface PlatformOAuth2Config {
  clientId: string;
  clientSecret: string;
  /** The page the browser is sent to: `<origin of the API base>/oauth2/authorize`. */
  authorizeUrl: string;
  /** The code and refresh exchange: `<API base>/oauth2/token` (form-encoded, client by HTTP Basic). */
  tokenUrl: string;
  /** The API base, for `GET /users/@me` and `/users/@me/guilds` with the member's bearer token. */
  apiBaseUrl: string;
  /**
   * Where the platform sends the browser back: `PUBLIC_BASE_URL` (the API's
   * public URL, its stage included when deployed) + `/dashboard/callback`;
   * it must be registered on the platform exactly so.
   */
  redirectUri: string;
}

/** The path of the dashboard's callback under the API's public URL. */
export const DASHBOARD_CALLBACK_PATH = '/dashboard/callback';

/**
 * The OAuth2 configuration read from the environment (the secret is kept a
 * few minutes, as every configured secret), or null when the client ID or
 * secret is not configured: the dashboard then says sign-in is not set up
 * rather than sending anyone to the platform.
 */
export async function platformOAuth2Config(): Promise<PlatformOAuth2Config | null> {
  const clientId = process.env.PLATFORM_CLIENT_ID?.trim();
  if (!clientId) return null;
  const clientSecret = await configuredSecret('PLATFORM_CLIENT_SECRET');
  if (!clientSecret) return null;
  const apiBaseUrl = (process.env.PLATFORM_API_BASE_URL || DEFAULT_PLATFORM_BASE_URL).replace(/\/+$/, '');
  const publicBase = (process.env.PUBLIC_BASE_URL || 'http://127.0.0.1:3000').replace(/\/+$/, '');
  let origin: string;
  try {
    origin = new URL(apiBaseUrl).origin;
  } catch {
    // A base URL the platform client cannot use either: sign-in is not set up.
    return null;
  }
  return {
    clientId,
    clientSecret,
    authorizeUrl: `${origin}/oauth2/authorize`,
    tokenUrl: `${apiBaseUrl}/oauth2/token`,
    apiBaseUrl,
    redirectUri: `${publicBase}${DASHBOARD_CALLBACK_PATH}`,
  };
}

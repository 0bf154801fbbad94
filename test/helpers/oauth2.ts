/**
 * A person signing in through the sandbox platform's OAuth2 (CONTRACT 19),
 * over HTTP as a browser would: the authorize page's form, then (for tests
 * of the sandbox itself) the token exchange.
 */
import type { RESTPostOAuth2AccessTokenResult } from 'discord-api-types/v10';

/**
 * Approves (or cancels) an authorization as `userId`: posts the sandbox's
 * authorize form for `authorizeUrl` (the URL a service sent the browser to)
 * and answers where the platform redirects the browser (the redirect URI
 * with `code` and `state`, or `error=access_denied`), or throws with the
 * page's text when it does not redirect.
 */
export async function approveAs(authorizeUrl: string, userId: string, decision: 'approve' | 'cancel' = 'approve'): Promise<URL> {
  const url = new URL(authorizeUrl);
  const form = new URLSearchParams(url.searchParams);
  form.set('user_id', userId);
  form.set('decision', decision);
  const res = await fetch(new URL('/oauth2/authorize', url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`The authorize page answered ${res.status}, not a redirect: ${await res.text()}`);
  return new URL(location);
}

/** What signing a member in needs: the sandbox, the registered application and where it redirects. */
export interface SignIn {
  /** The sandbox's origin, `http://host:port`. */
  origin: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  userId: string;
  /** Default `identify guilds`. */
  scope?: string;
}

/** The member's tokens, as the service's callback would get them: authorize as the member, then exchange the code. */
export async function memberTokens(input: SignIn): Promise<RESTPostOAuth2AccessTokenResult> {
  const authorize = new URL('/oauth2/authorize', input.origin);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: input.clientId,
    scope: input.scope ?? 'identify guilds',
    redirect_uri: input.redirectUri,
    state: 'test-state',
  }).toString();
  const back = await approveAs(authorize.toString(), input.userId);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`The platform redirected without a code: ${back}`);
  const res = await fetch(`${input.origin}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: input.redirectUri,
      client_id: input.clientId,
      client_secret: input.clientSecret,
    }).toString(),
  });
  if (res.status !== 200) throw new Error(`The token exchange answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as RESTPostOAuth2AccessTokenResult;
}

/**
 * The platform's OAuth2 as the dashboard uses it (Discord API v10: the
 * authorization-code exchange, `/users/@me`, `/users/@me/guilds` with a
 * Bearer token, revocation), and the bot's own guild list to tell where the
 * bot is. Behind one small interface so tests can stand in for the platform
 * ({@link useOAuthClient}); the default speaks HTTP to
 * `PLATFORM_API_BASE_URL`, the sandbox in local mode, as the platform's
 * OAuth2 configuration says (shared/platform/oauth2-config.ts).
 */
import { forbidden } from '../errors.js';
import { platform } from '../platform/client.js';
import { platformOAuth2Config } from '../platform/oauth2-config.js';
import { PLATFORM_TIMEOUT_MS } from '../platform/transport.js';
import { USER_AGENT } from '../platform/user-agent.js';
import { mayManage, type SessionGuild } from './session.js';

/** A guild of `/users/@me/guilds` as the platform answers it. */
export interface PlatformUserGuild {
  id: string;
  name: string;
  owner?: boolean;
  permissions?: string;
}

export interface OAuthClient {
  /** POST /oauth2/token (authorization_code): the access token, or null when the platform refuses the code. */
  exchangeCode(code: string): Promise<string | null>;
  /** GET /users/@me with the Bearer token. */
  currentUser(accessToken: string): Promise<{ id: string; username: string }>;
  /** GET /users/@me/guilds with the Bearer token. */
  userGuilds(accessToken: string): Promise<PlatformUserGuild[]>;
  /** The IDs of the guilds the bot is in (GET /users/@me/guilds with the bot token). */
  botGuildIds(): Promise<Set<string>>;
  /** POST /oauth2/token/revoke; best effort. */
  revoke(accessToken: string): Promise<void>;
}

/** The OAuth2 configuration; the dashboard's routes check it is there before anything needs it. */
async function config() {
  const found = await platformOAuth2Config();
  if (!found) throw new Error('The dashboard needs PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET');
  return found;
}

async function bearerGet<T>(path: string, accessToken: string): Promise<T> {
  const answer = await fetch(`${(await config()).apiBaseUrl}${path}`, {
    headers: { Authorization: `Bearer ${accessToken}`, 'User-Agent': USER_AGENT },
    // Every wait has a deadline: the platform's own calls' limit.
    signal: AbortSignal.timeout(PLATFORM_TIMEOUT_MS),
  });
  // A token the platform no longer honours: the member signs in again.
  if (answer.status === 401) throw forbidden('The platform no longer accepts this dashboard session; sign in again.');
  if (!answer.ok) throw new Error(`The platform answered ${answer.status} to GET ${path}`);
  return (await answer.json()) as T;
}

async function tokenCall(suffix: string, fields: Record<string, string>): Promise<Response> {
  const { clientId: id, clientSecret: secret, tokenUrl } = await config();
  return fetch(`${tokenUrl}${suffix}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      'User-Agent': USER_AGENT,
    },
    body: new URLSearchParams(fields).toString(),
    signal: AbortSignal.timeout(PLATFORM_TIMEOUT_MS),
  });
}

const httpClient: OAuthClient = {
  async exchangeCode(code) {
    const answer = await tokenCall('', { grant_type: 'authorization_code', code, redirect_uri: (await config()).redirectUri });
    if (answer.status >= 400 && answer.status < 500) return null;
    if (!answer.ok) throw new Error(`The platform answered ${answer.status} to the code exchange`);
    const body = (await answer.json()) as { access_token?: unknown };
    return typeof body.access_token === 'string' ? body.access_token : null;
  },
  currentUser: (token) => bearerGet('/users/@me', token),
  userGuilds: (token) => bearerGet('/users/@me/guilds', token),
  async botGuildIds() {
    const ids = new Set<string>();
    let after = '0';
    for (;;) {
      const page = await platform.request<{ id: string }[]>({ method: 'GET', path: '/users/@me/guilds', query: { limit: 200, after } });
      for (const guild of page) ids.add(guild.id);
      if (page.length < 200) return ids;
      after = page[page.length - 1]!.id;
    }
  },
  async revoke(token) {
    await tokenCall('/revoke', { token, token_type_hint: 'access_token' }).catch(() => undefined);
  },
};

let current: OAuthClient = httpClient;

/** The client in use. */
export const oauthClient = (): OAuthClient => current;

/** Replaces the client (tests); answers the one it replaced. */
export function useOAuthClient(client: OAuthClient | null): OAuthClient {
  const before = current;
  current = client ?? httpClient;
  return before;
}

/** The member's guilds as a session keeps them: whether they may configure each, and whether the bot is in it. */
export async function sessionGuilds(accessToken: string): Promise<SessionGuild[]> {
  const client = oauthClient();
  const [guilds, bot] = await Promise.all([client.userGuilds(accessToken), client.botGuildIds()]);
  return guilds.map((g) => ({ id: String(g.id), name: String(g.name), manage: mayManage(g), bot: bot.has(String(g.id)) }));
}

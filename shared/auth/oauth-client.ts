/**
 * The platform's OAuth2 as the dashboard uses it (Discord API v10: the
 * authorization-code exchange, `/users/@me`, `/users/@me/guilds` with a
 * Bearer token, revocation), and the bot's own guild list to tell where the
 * bot is. Behind one small interface so tests can stand in for the platform
 * ({@link useOAuthClient}); the default speaks HTTP to
 * `PLATFORM_API_BASE_URL`, the sandbox in local mode.
 */
import { configuredSecret } from '../secrets.js';
import { forbidden } from '../errors.js';
import { platform } from '../platform/client.js';
import { DEFAULT_PLATFORM_BASE_URL } from '../platform/transport.js';
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
  exchangeCode(code: string, redirectUri: string): Promise<string | null>;
  /** GET /users/@me with the Bearer token. */
  currentUser(accessToken: string): Promise<{ id: string; username: string }>;
  /** GET /users/@me/guilds with the Bearer token. */
  userGuilds(accessToken: string): Promise<PlatformUserGuild[]>;
  /** The IDs of the guilds the bot is in (GET /users/@me/guilds with the bot token). */
  botGuildIds(): Promise<Set<string>>;
  /** POST /oauth2/token/revoke; best effort. */
  revoke(accessToken: string): Promise<void>;
}

const base = () => (process.env.PLATFORM_API_BASE_URL || DEFAULT_PLATFORM_BASE_URL).replace(/\/+$/, '');

/** Where the platform's authorize page is: its web origin, beside `/api/v10`. */
export const authorizeUrl = () => `${base().replace(/\/api\/v\d+$/, '')}/oauth2/authorize`;

async function clientCredentials(): Promise<{ id: string; secret: string }> {
  const id = process.env.PLATFORM_CLIENT_ID ?? '';
  const secret = (await configuredSecret('PLATFORM_CLIENT_SECRET')) ?? '';
  if (!id || !secret) throw new Error('The dashboard needs PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET');
  return { id, secret };
}

async function bearerGet<T>(path: string, accessToken: string): Promise<T> {
  const answer = await fetch(`${base()}${path}`, { headers: { Authorization: `Bearer ${accessToken}`, 'User-Agent': USER_AGENT } });
  // A token the platform no longer honours: the member signs in again.
  if (answer.status === 401) throw forbidden('The platform no longer accepts this dashboard session; sign in again.');
  if (!answer.ok) throw new Error(`The platform answered ${answer.status} to GET ${path}`);
  return (await answer.json()) as T;
}

async function tokenCall(path: string, fields: Record<string, string>): Promise<Response> {
  const { id, secret } = await clientCredentials();
  return fetch(`${base()}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      'User-Agent': USER_AGENT,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

const httpClient: OAuthClient = {
  async exchangeCode(code, redirectUri) {
    const answer = await tokenCall('/oauth2/token', { grant_type: 'authorization_code', code, redirect_uri: redirectUri });
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
    await tokenCall('/oauth2/token/revoke', { token, token_type_hint: 'access_token' }).catch(() => undefined);
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

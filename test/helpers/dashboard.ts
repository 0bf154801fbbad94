import { type OAuthClient, type PlatformUserGuild, useOAuthClient } from '#shared/auth/oauth-client.js';

/**
 * A platform OAuth2 standing in for the real one in tests that must decide
 * what the platform says (a member's rights changing, a code refused): each
 * code `code:<user>` is exchanged for that user's token once; the user's
 * guilds are whatever the test sets. Where the bot is stays the sandbox's
 * word (the client it replaces answers that).
 */
export interface FakeOAuth {
  /** The user's guilds as `/users/@me/guilds` answers them (change it to change their rights). */
  guilds: Map<string, PlatformUserGuild[]>;
  revoked: string[];
  restore(): void;
}

export function fakeOAuth(): FakeOAuth {
  const guilds = new Map<string, PlatformUserGuild[]>();
  const used = new Set<string>();
  const revoked: string[] = [];
  let real: OAuthClient | null = null;
  const client: OAuthClient = {
    async exchangeCode(code) {
      if (!code.startsWith('code:') || used.has(code)) return null;
      used.add(code);
      return `token:${code.slice(5)}`;
    },
    async currentUser(token) {
      const id = token.slice(6);
      return { id, username: `member-${id}` };
    },
    async userGuilds(token) {
      return guilds.get(token.slice(6)) ?? [];
    },
    botGuildIds: () => real!.botGuildIds(),
    async revoke(token) {
      revoked.push(token);
    },
  };
  real = useOAuthClient(client);
  return { guilds, revoked, restore: () => useOAuthClient(real) };
}

/** The `name=value` of a `Set-Cookie` header. */
export const cookiePair = (setCookie: string | null) => (setCookie ?? '').split(';', 1)[0]!;

/**
 * Signs a member in through the dashboard's routes (login, then the
 * callback with the code the platform would give): the session cookie.
 */
export async function signIn(serviceUrl: string, userId: string): Promise<{ cookie: string; setCookie: string }> {
  const login = await fetch(`${serviceUrl}/dashboard/login`, { redirect: 'manual' });
  const state = new URL(login.headers.get('location')!).searchParams.get('state')!;
  const loginCookie = cookiePair(login.headers.get('set-cookie'));
  const back = await fetch(`${serviceUrl}/dashboard/callback?code=${encodeURIComponent(`code:${userId}`)}&state=${encodeURIComponent(state)}`, {
    redirect: 'manual',
    headers: { cookie: loginCookie },
  });
  if (back.status !== 302) throw new Error(`sign-in failed: ${back.status} ${await back.text()}`);
  const setCookie = back.headers.get('set-cookie')!;
  return { cookie: cookiePair(setCookie), setCookie };
}

/** The CSRF token a page of the session carries. */
export async function csrfOf(serviceUrl: string, cookie: string): Promise<string> {
  const home = await (await fetch(`${serviceUrl}/dashboard`, { headers: { cookie } })).text();
  const match = /csrf=([^"&]+)/.exec(home);
  if (!match) throw new Error(`no CSRF token on the page: ${home.slice(0, 300)}`);
  return decodeURIComponent(match[1]!);
}

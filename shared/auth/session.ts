/**
 * Dashboard sessions (behaviour §19): the third credential beside the
 * service token and guild keys. A session is a random 256-bit ID in a signed
 * cookie; the table holds it only by hash, with the member it is, the
 * member's guilds as the platform last said (re-read at most every 5
 * minutes) and the platform's access token sealed under the session ID
 * itself (shared/http/idempotency-seal.ts), so the table alone opens
 * nothing. Logout deletes the item: the cookie stops working at once.
 *
 * Cookies and CSRF tokens are MACs under a key derived from the OAuth2
 * client secret, a secret of the deployment the dashboard needs anyway.
 */
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { entity } from '../db/entity.js';
import { clockNow } from '../clock.js';
import { forbidden } from '../errors.js';
import { open, seal } from '../http/idempotency-seal.js';
import { configuredSecret } from '../secrets.js';
import { Permission } from '../platform/permissions.js';
import { errorField, log } from '../observe/log.js';
import { SESSION_COOKIE } from './session-names.js';
import { dashboardUsageKeyId, registerUsageKey } from './usage-keys.js';

export { CSRF_HEADER, SESSION_COOKIE } from './session-names.js';
/** The cookie binding a login's `state` to the browser that started it. */
export const LOGIN_COOKIE = 'gmms_login';
/** How long a session lasts at most (behaviour §19: within 12 hours). */
export const SESSION_MS = 12 * 60 * 60 * 1000;
/** How long a login may take between the redirect and the callback. */
export const LOGIN_MS = 10 * 60 * 1000;
/** How long the platform's word on the member's guilds is believed. */
export const GUILDS_FRESH_MS = 5 * 60 * 1000;

/** One of the member's guilds as the platform lists it, with what the dashboard derives from it. */
export interface SessionGuild {
  id: string;
  name: string;
  /** Owner, Administrator or Manage Guild: the member may configure it. */
  manage: boolean;
  /** The bot is in it. */
  bot: boolean;
}

export interface Session {
  /** The hash of the session ID: the item's key. */
  hash: string;
  user_id: string;
  username: string;
  guilds: SessionGuild[];
  /** Epoch ms of the platform read `guilds` comes from. */
  guilds_read_at: number;
  /** Epoch seconds: the table's TTL and the session's end. */
  expires_at: number;
  sealed_token: string | null;
  /** AWS: the API Gateway key holding the member's rate (behaviour §13), once registered; null before, and always in local mode. */
  usage_key_id: string | null;
}

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

const SessionEntity = entity({
  name: 'dashboard_session',
  prefix: 'SESSION',
  pk: (f: { hash: string }) => `DASH#${f.hash}`,
  parse: (item): Session => ({
    hash: String(item.pk).slice('DASH#'.length),
    user_id: String(item.user_id),
    username: String(item.username),
    guilds: JSON.parse(String(item.guilds)) as SessionGuild[],
    guilds_read_at: Number(item.guilds_read_at),
    expires_at: Number(item.expires_at),
    sealed_token: typeof item.sealed_token === 'string' ? item.sealed_token : null,
    usage_key_id: typeof item.usage_key_id === 'string' ? item.usage_key_id : null,
  }),
});

/** A login under way: its `state` by hash, taken once by the callback. */
const LoginEntity = entity({
  name: 'dashboard_login',
  prefix: 'LOGIN',
  pk: (f: { hash: string }) => `DASHLOGIN#${f.hash}`,
  parse: (item) => ({ expires_at: Number(item.expires_at) }),
});

let macKey: { source: string; key: Promise<Buffer> } | null = null;

/** The cookies' MAC key, derived from the OAuth2 client secret (read once per process, again if its configuration changes). */
async function cookieKey(): Promise<Buffer> {
  const source = process.env.PLATFORM_CLIENT_SECRET || process.env.PLATFORM_CLIENT_SECRET_SECRET_ARN || '';
  if (!macKey || macKey.source !== source) {
    const key = configuredSecret('PLATFORM_CLIENT_SECRET').then((secret) => {
      if (!secret) throw new Error('No OAuth2 client secret: set PLATFORM_CLIENT_SECRET or PLATFORM_CLIENT_SECRET_SECRET_ARN');
      return Buffer.from(hkdfSync('sha256', secret, 'gmms dashboard cookies v1', '', 32));
    });
    key.catch(() => {
      if (macKey?.key === key) macKey = null;
    });
    macKey = { source, key };
  }
  return macKey.key;
}

const mac = async (purpose: string, value: string) =>
  createHmac('sha256', await cookieKey())
    .update(`${purpose}\u0000${value}`)
    .digest('base64url');

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `value.mac`: a cookie value no one without the secret can make or alter. */
async function signed(purpose: string, value: string): Promise<string> {
  return `${value}.${await mac(purpose, value)}`;
}

async function unsigned(purpose: string, text: string | undefined): Promise<string | null> {
  if (!text) return null;
  const dot = text.lastIndexOf('.');
  if (dot <= 0) return null;
  const value = text.slice(0, dot);
  return same(text.slice(dot + 1), await mac(purpose, value)) ? value : null;
}

/** The cookies of a `Cookie` header, by name (the first of a repeated name). */
export function cookiesOf(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name && !(name in out)) out[name] = part.slice(eq + 1).trim();
  }
  return out;
}

/** Where the service is reached from browsers (`PUBLIC_BASE_URL`; local mode sets it to its own loopback URL). */
export const publicBase = () => (process.env.PUBLIC_BASE_URL || 'http://127.0.0.1:3000').replace(/\/$/, '');

/** A `Set-Cookie` value: HttpOnly, SameSite=Lax, Path=/, Secure unless the service is served over plain http (local mode). */
export function setCookie(name: string, value: string, maxAgeSeconds: number): string {
  const secure = publicBase().startsWith('http://') ? '' : '; Secure';
  return `${name}=${value}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

/** The CSRF token of a session: a MAC of its ID, so it is bound to it and never stored. */
export const csrfTokenOf = (sessionId: string) => mac('csrf', sessionId);

/** Starts a login: a fresh `state`, remembered once in the table, and the cookie binding it to this browser. */
export async function beginLogin(): Promise<{ state: string; cookie: string }> {
  const state = randomBytes(24).toString('base64url');
  await LoginEntity.put({ hash: hashOf(state) }, { expires_at: Math.ceil((clockNow() + LOGIN_MS) / 1000) });
  return { state, cookie: setCookie(LOGIN_COOKIE, await signed('login', state), LOGIN_MS / 1000) };
}

/**
 * Takes a login's `state` once: true only when the query's state is the one
 * this browser's cookie holds, it is unexpired and no callback took it
 * before (a replayed callback is refused even with the same cookie).
 */
export async function takeLogin(state: string | undefined, cookieHeader: string | undefined): Promise<boolean> {
  const bound = await unsigned('login', cookiesOf(cookieHeader)[LOGIN_COOKIE]);
  if (!state || !bound || !same(bound, state)) return false;
  const taken = await LoginEntity.delete({ hash: hashOf(state) }, { returnOld: true });
  return taken !== null && taken.expires_at * 1000 > clockNow();
}

/** What a login learnt from the platform. */
export interface SignedIn {
  user: { id: string; username: string };
  guilds: SessionGuild[];
  accessToken: string;
}

const sealId = (sessionId: string) => ({ scope: 'session', operation: 'dashboard.platform-token', key: sessionId });

/** Starts a session and answers its cookie. */
export async function startSession(signedIn: SignedIn): Promise<{ sessionId: string; cookie: string }> {
  const sessionId = randomBytes(32).toString('base64url');
  const now = clockNow();
  await SessionEntity.put(
    { hash: hashOf(sessionId) },
    {
      user_id: signedIn.user.id,
      username: signedIn.user.username,
      guilds: JSON.stringify(signedIn.guilds),
      guilds_read_at: now,
      expires_at: Math.floor((now + SESSION_MS) / 1000),
      sealed_token: Buffer.from(seal(sealId(sessionId), Buffer.from(signedIn.accessToken, 'utf8'))).toString('base64'),
    },
    { ifAbsent: true },
  );
  return { sessionId, cookie: setCookie(SESSION_COOKIE, await signed('session', sessionId), SESSION_MS / 1000) };
}

/** The session a `Cookie` header carries: its ID and record, or null (none, forged, ended, expired). */
export async function sessionOfCookie(cookieHeader: string | undefined): Promise<{ sessionId: string; session: Session } | null> {
  const sessionId = await unsigned('session', cookiesOf(cookieHeader)[SESSION_COOKIE]);
  if (!sessionId) return null;
  const session = await readSession(sessionId);
  return session ? { sessionId, session } : null;
}

/** A session by its ID, null when ended or expired (the TTL deletes late: the time is checked here). */
export async function readSession(sessionId: string): Promise<Session | null> {
  const session = await SessionEntity.get({ hash: hashOf(sessionId) });
  return session && session.expires_at * 1000 > clockNow() ? session : null;
}

/** Ends a session (logout); answers its platform token, to revoke, when it had one. */
export async function endSession(sessionId: string): Promise<string | null> {
  const ended = await SessionEntity.delete({ hash: hashOf(sessionId) }, { returnOld: true });
  return ended ? tokenOf(sessionId, ended) : null;
}

/** The platform's access token of a session, opened with its ID. */
export function tokenOf(sessionId: string, session: Session): string | null {
  if (!session.sealed_token) return null;
  return open(sealId(sessionId), Buffer.from(session.sealed_token, 'base64'))?.toString('utf8') ?? null;
}

/** Whether a guild of `/users/@me/guilds` lets the member configure it (behaviour §19). */
export function mayManage(guild: { owner?: boolean; permissions?: string | number }): boolean {
  if (guild.owner) return true;
  let bits: bigint;
  try {
    bits = BigInt(guild.permissions ?? 0);
  } catch {
    return false;
  }
  return (bits & (Permission.Administrator | Permission.ManageGuild)) !== 0n;
}

/** How a session's guilds are read again from the platform (the dashboard's platform client, injected by the function using it). */
export type GuildsReader = (accessToken: string) => Promise<SessionGuild[]>;

/** The session's guilds, read again from the platform when the last read is older than 5 minutes. */
export async function freshGuilds(sessionId: string, session: Session, read: GuildsReader): Promise<SessionGuild[]> {
  const now = clockNow();
  if (now - session.guilds_read_at < GUILDS_FRESH_MS) return session.guilds;
  const token = tokenOf(sessionId, session);
  if (!token) throw forbidden('This dashboard session can no longer read your guilds from the platform; sign in again.');
  const guilds = await read(token);
  await SessionEntity.update(
    { hash: session.hash },
    { set: { guilds: JSON.stringify(guilds), guilds_read_at: now }, condition: { pk: { exists: true } }, returnValues: 'NONE' },
  );
  return guilds;
}

/**
 * Gives a session's member their API Gateway key on the guild-key plan (AWS
 * only: the authorizer names it for each of the session's requests, so the
 * member has a guild key's rate in a bucket of their own), at the session's
 * first request, and records it on the session. Registered by the authorizer,
 * whose role may create such keys, as it does for a guild key minted without
 * one. Best effort: a failure is logged, and API Gateway refuses the request
 * until a later one registers it.
 */
export async function attachSessionRate(session: Session): Promise<void> {
  if (session.usage_key_id !== null) return;
  try {
    const usageKeyId = await registerUsageKey('dashboard', dashboardUsageKeyId(session.user_id));
    if (!usageKeyId) return;
    await SessionEntity.update({ hash: session.hash }, { set: { usage_key_id: usageKeyId }, condition: { pk: { exists: true } }, returnValues: 'NONE' });
  } catch (error) {
    log('error', 'dashboard rate not registered', { user_id: session.user_id, error: errorField(error) });
  }
}

/** The guilds a session may act in: the member may configure them and the bot is in them. */
export const actingGuilds = (guilds: readonly SessionGuild[]) => guilds.filter((g) => g.manage && g.bot).map((g) => g.id);

/** Checks the CSRF token a change carries against the session's; true when it matches. */
export async function csrfMatches(sessionId: string, token: string | undefined): Promise<boolean> {
  return token !== undefined && same(token, await csrfTokenOf(sessionId));
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { Access } from '../http/route.js';
import { verifyApiKey } from './api-keys.js';
import type { Caller } from './caller.js';
import { CSRF_REASON, INTERNAL_REASON, UNAUTHORIZED_REASON } from './messages.js';
import { configuredSecret } from '../secrets.js';
import { sessionGuilds } from './oauth-client.js';
import { actingGuilds, attachSessionRate, csrfMatches, freshGuilds, sessionOfCookie } from './session.js';

/** The authorizer's decision for one request, the same in AWS and in local mode. */
export type Verdict = { allow: true; caller: Caller } | { allow: false; status: 401 | 403; reason: string };

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The bearer token of an `Authorization` header, or null when there is none. */
const bearerOf = (authorization: string | undefined): string | null => /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? null;

/** Whether `Authorization: Bearer <token>` carries the service token (compared in constant time); no guild key is looked up. */
export async function isServiceToken(authorization: string | undefined): Promise<boolean> {
  const token = bearerOf(authorization);
  if (token === null) return false;
  const service = await configuredSecret('SERVICE_TOKEN');
  return Boolean(service) && timingSafeEqual(digest(service!), digest(token));
}

/** What a request offers besides `Authorization`: a dashboard session's cookie, and for a change its CSRF token. */
export interface SessionOffer {
  method: string;
  cookie: string | undefined;
  csrf: string | undefined;
}

/**
 * Reads `Authorization: Bearer <token>`, or without one the dashboard's
 * session cookie, and decides whether this caller may call a route of this
 * access level. A session has a guild key's reach, and a change (any method
 * but GET) must carry the session's CSRF token (behaviour §19); the guild it
 * acts in is one of the caller's `guildIds`, checked by the endpoint factory
 * (which reads the request's guild) as a guild key's guild is.
 */
export async function authorize(authorization: string | undefined, access: Access, offer?: SessionOffer): Promise<Verdict> {
  const token = bearerOf(authorization);
  if (token === null) return offer && !authorization ? authorizeSession(offer, access) : { allow: false, status: 401, reason: UNAUTHORIZED_REASON };
  if (await isServiceToken(authorization)) return { allow: true, caller: { kind: 'service' } };
  const key = await verifyApiKey(token);
  if (!key) return { allow: false, status: 401, reason: UNAUTHORIZED_REASON };
  if (access === 'internal') return { allow: false, status: 403, reason: INTERNAL_REASON };
  return { allow: true, caller: key };
}

async function authorizeSession(offer: SessionOffer, access: Access): Promise<Verdict> {
  const found = await sessionOfCookie(offer.cookie);
  if (!found) return { allow: false, status: 401, reason: UNAUTHORIZED_REASON };
  if (access === 'internal') return { allow: false, status: 403, reason: INTERNAL_REASON };
  if (offer.method.toUpperCase() !== 'GET' && !(await csrfMatches(found.sessionId, offer.csrf))) {
    return { allow: false, status: 403, reason: CSRF_REASON };
  }
  // The platform's word on the member's rights, at most 5 minutes old, decides where the session acts.
  const guilds = await freshGuilds(found.sessionId, found.session, sessionGuilds);
  await attachSessionRate(found.session);
  return { allow: true, caller: { kind: 'session', sessionId: found.sessionId, userId: found.session.user_id, guildIds: actingGuilds(guilds) } };
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { Access } from '../http/route.js';
import { verifyApiKey } from './api-keys.js';
import type { Caller } from './caller.js';
import { INTERNAL_REASON, UNAUTHORIZED_REASON } from './messages.js';
import { configuredSecret } from '../secrets.js';

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

/** Reads `Authorization: Bearer <token>` and decides whether this caller may call a route of this access level. */
export async function authorize(authorization: string | undefined, access: Access): Promise<Verdict> {
  const token = bearerOf(authorization);
  if (token === null) return { allow: false, status: 401, reason: UNAUTHORIZED_REASON };
  if (await isServiceToken(authorization)) return { allow: true, caller: { kind: 'service' } };
  const key = await verifyApiKey(token);
  if (!key) return { allow: false, status: 401, reason: UNAUTHORIZED_REASON };
  if (access === 'internal') return { allow: false, status: 403, reason: INTERNAL_REASON };
  return { allow: true, caller: key };
}

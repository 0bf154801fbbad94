/**
 * Kept answers sealed by the caller's own key (behaviour §16): an answer may
 * carry what the service otherwise never stores readable (a new API key's
 * secret) or member data a privacy delete must not leave behind, so the
 * table holds it only as AES-256-GCM ciphertext under a key derived from
 * the raw `Idempotency-Key`, which the table never holds either (its items
 * are keyed by the key's hash). Only a repeat presenting the key can open
 * it. node:crypto is Node's own, so this adds nothing to a bundle.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Whose key it is and for what: the same key in another scope or operation is another key. */
export interface KeyId {
  /** `service` (the service token), `guild:<id>` (a guild's API key) or `public` (no credentials). */
  scope: string;
  /** The route id (`polls.vote`). */
  operation: string;
  key: string;
}

/** An answer as it is replayed: the status, the headers and the body the first call answered. */
export interface KeptAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** Versions the derivation: a change of scheme derives other keys, so old seals fail to open instead of opening wrong. */
const SALT = 'gmms idempotency-key answer v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The answer's key: the raw key through HKDF-SHA256, bound to its scope and operation. */
function answerKey(id: KeyId): Buffer {
  return Buffer.from(hkdfSync('sha256', id.key, SALT, `${id.scope}\u0000${id.operation}`, 32));
}

/** The answer as sealed bytes: IV, ciphertext, tag. `plain` is what is sealed (the answer's JSON, gzipped or not). */
export function seal(id: KeyId, plain: Uint8Array): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', answerKey(id), iv);
  return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

/** The sealed bytes opened with the key a repeat presents; null when they do not open (altered, or sealed otherwise). */
export function open(id: KeyId, sealed: Uint8Array): Buffer | null {
  if (sealed.length < IV_BYTES + TAG_BYTES) return null;
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  try {
    const decipher = createDecipheriv('aes-256-gcm', answerKey(id), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}

/** The answer's plain form before sealing: one JSON array, so status, headers and body are all inside the seal. */
export const answerBytes = (answer: KeptAnswer): Buffer => Buffer.from(JSON.stringify([answer.statusCode, answer.headers, answer.body]), 'utf8');

/** The plain form read back; null when it is not one (it opened, so only a change of form could do that). */
export function answerOf(plain: Buffer): KeptAnswer | null {
  try {
    const [statusCode, headers, body] = JSON.parse(plain.toString('utf8')) as [unknown, unknown, unknown];
    if (typeof statusCode !== 'number' || typeof body !== 'string' || typeof headers !== 'object' || headers === null) return null;
    return { statusCode, headers: headers as Record<string, string>, body };
  } catch {
    return null;
  }
}

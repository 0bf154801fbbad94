/**
 * Nonces for message creates (behaviour §13, "each effect once"): the platform
 * keeps a message's nonce for a few minutes and, with `enforce_nonce`,
 * answers a second create carrying the same nonce in the channel with the
 * message it made first. A nonce is a string of at most 25 characters.
 */
import { randomBytes } from 'node:crypto';
import { fixedKey } from '../db/fixed-key.js';

/** The platform's limit on a nonce's length. */
export const NONCE_MAX_LENGTH = 25;

/** A fresh nonce for one logical send: its transport resends reuse it, nothing else does. */
export function randomNonce(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * The nonce of a post a scheduled job may redo (a redelivered or crashed
 * job): derived from what names the post, so every try of it carries the
 * same nonce and the platform makes one message.
 */
export function nonceFrom(...parts: string[]): string {
  return fixedKey(parts.join('\u0000')).slice(0, NONCE_MAX_LENGTH);
}

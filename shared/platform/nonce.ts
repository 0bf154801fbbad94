/**
 * Nonces for message creates (behaviour §13, "each effect once"): the platform
 * keeps a message's nonce for a few minutes and, with `enforce_nonce`,
 * answers a second create carrying the same nonce in the channel with the
 * message it made first. A nonce is a string of at most 25 characters.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
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

/** The identity of the keyed call in progress, and how many messages it has posted in each channel so far. */
interface KeyedPosts {
  seed: string;
  posted: Map<string, number>;
  open: boolean;
}

// Local mode runs many requests at once in one process: the call's identity travels with its own async work only.
const calls = new AsyncLocalStorage<KeyedPosts>();

/**
 * Runs a keyed call (behaviour §16) so that every message it creates
 * without a nonce of its own gets one derived from `seed` (the key and its
 * scope), the channel and the message's place among the call's posts in
 * that channel. A repeat of the call after a failure makes the same posts
 * in the same order, so each carries the nonce its first attempt's did and
 * the platform answers the message already made instead of posting another.
 */
export async function withCallNonces<T>(seed: string, run: () => Promise<T>): Promise<T> {
  const posts: KeyedPosts = { seed, posted: new Map(), open: true };
  try {
    return await calls.run(posts, run);
  } finally {
    // Work the call started that outlives it (a queue it woke) posts as itself, not as the call.
    posts.open = false;
  }
}

/** Runs `work` outside any keyed call: what a call only wakes (local mode's queue pump) is not the call's own post. */
export function outsideCall<T>(work: () => T): T {
  return calls.exit(work);
}

/** The nonce of the next message create in `channelId`: derived inside a keyed call, else fresh. */
export function messageNonce(channelId: string): string {
  const call = calls.getStore();
  if (!call?.open) return randomNonce();
  const index = call.posted.get(channelId) ?? 0;
  call.posted.set(channelId, index + 1);
  return nonceFrom('call', call.seed, channelId, String(index));
}

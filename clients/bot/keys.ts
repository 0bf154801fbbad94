/**
 * The `Idempotency-Key` of each call the bot makes for an event (behaviour
 * §16): the event's identity as the platform gives it, then the call's
 * operation, so a retry, a redelivered dispatch or a resumed session's
 * replay sends the same key and the service does the event once.
 *
 * | event                                   | identity                               |
 * | --------------------------------------- | -------------------------------------- |
 * | INTERACTION_CREATE                      | `interaction:<interaction id>`         |
 * | MESSAGE_CREATE                          | `message:<message id>:created`         |
 * | MESSAGE_DELETE, MESSAGE_DELETE_BULK     | `message:<message id>:deleted`         |
 * | GUILD_MEMBER_ADD                        | `join:<guild>:<member>:<joined_at>`    |
 * | any other                               | `dispatch:<session id>:<sequence s>`   |
 *
 * The key is `<identity>:<operation>`, the operation written
 * `post.welcoming.check.welcome.channel` (method, then the path after
 * `/modules/`), and `:<n>` after it for the n-th call (from 2) of one
 * operation for one identity (a select picking several poll answers).
 */
import { createHash } from 'node:crypto';
import type { Call } from './calls.js';

/** What the service takes (behaviour §16). */
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{1,255}$/;

/**
 * A platform value as part of a key: characters the key may not hold, and
 * `_` itself, are written `_` and the hex of their UTF-8 bytes, so two
 * different values never make the same part (`+00:00` is `_2b00:00`).
 */
export function keyPart(value: string): string {
  return value.replace(/[^A-Za-z0-9.:-]/gu, (c) => [...Buffer.from(c, 'utf8')].map((b) => `_${b.toString(16).padStart(2, '0')}`).join(''));
}

/** The operation as a key part: `post.giveaways.entries.entry_id.enter` (the route table's paths hold nothing else a key may not). */
export function operationPart(call: Pick<Call, 'method' | 'path'>): string {
  return `${call.method}.${call.path
    .replace(/^\/modules\//, '')
    .replace(/[{}]/g, '')
    .replaceAll('/', '.')}`;
}

/** The identity of a join: a member who left and joined again has another `joined_at`, so another identity. */
export const joinIdentity = (guildId: string, memberId: string, joinedAt: string) => `join:${keyPart(guildId)}:${keyPart(memberId)}:${keyPart(joinedAt)}`;

export const interactionIdentity = (id: string) => `interaction:${keyPart(id)}`;

export const messageIdentity = (id: string, event: 'created' | 'edited' | 'deleted') => `message:${keyPart(id)}:${event}`;

/** A dispatch with no identity of its own: its place in the gateway session, which a resumed session replays unchanged. */
export const dispatchIdentity = (sessionId: string, sequence: number) => `dispatch:${keyPart(sessionId)}:${sequence}`;

/** A key over 255 characters (never from the platform's IDs, but a key must fit) becomes the hash of itself. */
function fitted(key: string): string {
  return key.length <= 255 ? key : `sha256:${createHash('sha256').update(key).digest('base64url')}`;
}

/**
 * Gives each call without a key one from `identity`: the operation, and
 * the call's place among the calls of the same operation. Calls that
 * already have a key (another identity, as a bulk delete's messages) keep it.
 */
export function keyCalls(identity: string | null, calls: Call[]): Call[] {
  if (identity === null) return calls;
  const seen = new Map<string, number>();
  return calls.map((call) => {
    if (call.idempotencyKey) return call;
    const operation = operationPart(call);
    const n = (seen.get(operation) ?? 0) + 1;
    seen.set(operation, n);
    return { ...call, idempotencyKey: fitted(`${identity}:${operation}${n > 1 ? `:${n}` : ''}`) };
  });
}

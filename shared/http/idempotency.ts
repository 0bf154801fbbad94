/**
 * `Idempotency-Key` (behaviour §16), once for every mutating route: the
 * endpoint factory reads the header with the other headers, takes the key
 * after the request's checks (or answers the repeat), and runs the use case
 * with message nonces derived from the key; {@link keepAnswers}, around its
 * middleware, keeps the final answer or lets the key go.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Caller } from '../auth/caller.js';
import { AppError, badRequest } from '../errors.js';
import { errorField, log } from '../observe/log.js';
import { IDEMPOTENCY_HEADER, KEEP_SECONDS, KEYED_METHODS, KEY_PATTERN, REPLAYED_HEADER } from './idempotency-header.js';
import { type KeyId, type KeyRecord, claimKey, keepAnswer, keepFirst, readKey, releaseKey } from './idempotency-store.js';
import { bodyTextOf, headerOf } from './request.js';

export { IDEMPOTENCY_HEADER, KEEP_SECONDS, KEY_PATTERN, REPLAYED_HEADER } from './idempotency-header.js';
/**
 * A running call holds its key for the time its function has left, plus
 * this margin: a first attempt that crashed or timed out blocks its
 * repeats for at most its function's timeout (10 s by default, never over
 * API Gateway's 29 s) and a second, never for ever.
 */
const LEASE_MARGIN_MS = 1000;
/** When a context says nothing of the time left (a test calling a handler bare): API Gateway's own limit. */
const DEFAULT_LEASE_MS = 29_000;

/**
 * The request's key: null on a read, or when none is sent; 400 naming the
 * header when it is not 1 to 255 of `[A-Za-z0-9._:-]`.
 */
export function idempotencyKeyOf(event: APIGatewayProxyEvent): string | null {
  if (!KEYED_METHODS.has((event.httpMethod ?? '').toUpperCase())) return null;
  const value = headerOf(event, IDEMPOTENCY_HEADER.toLowerCase());
  if (value === undefined) return null;
  if (!KEY_PATTERN.test(value)) {
    const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
    throw badRequest(
      `Header '${IDEMPOTENCY_HEADER}' must be 1 to 255 characters of letters, digits, '.', '_', ':' and '-'; ${value === '' ? 'it was empty' : `it was '${shown}' (${value.length} characters)`}.`,
    );
  }
  return value;
}

/** Whose key it is: a guild's API key keys within its guild, the service token within the service's. */
export function scopeOf(caller: Caller | null): string {
  if (!caller) return 'public';
  if (caller.kind === 'service') return 'service';
  return caller.kind === 'guild' ? `guild:${caller.guildId}` : `session:${caller.sessionId}`;
}

const sortedEntries = (values: Record<string, string | undefined> | null | undefined) =>
  Object.entries(values ?? {})
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** What makes a repeat the same request: the path's values, the query, the body's bytes and the acting member. */
export function fingerprintOf(event: APIGatewayProxyEvent, actor: string | null): string {
  const body = bodyTextOf(event) ?? '';
  const parts = [sortedEntries(event.pathParameters), sortedEntries(event.queryStringParameters), body, actor];
  return createHash('sha256').update(JSON.stringify(parts), 'utf8').digest('base64url');
}

/** Whether an answer is final (kept and replayed): 2xx, or a 4xx other than 409 and 429. */
export const isFinal = (status: number): boolean => (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 409 && status !== 429);

/** A key this invocation holds, to keep its answer or let it go. */
interface HeldKey {
  id: KeyId;
  fingerprint: string;
  attempt: string;
}

const held = new WeakMap<Context, HeldKey>();

/** Tries of taking a key that a first call lets go of between our write and our read. */
const CLAIM_TRIES = 3;

// A repeat in progress or a reused key is about the bot's retry: never told to the member of an interaction (botOnly).
const inProgress = (seconds: number) =>
  new AppError(
    'ConflictError',
    `A request with this ${IDEMPOTENCY_HEADER} is still running; send it again after ${seconds} second${seconds === 1 ? '' : 's'} for its answer.`,
    { headers: { 'Retry-After': String(seconds) }, botOnly: true },
  );

/** The key sent first with another request (body, path, query or acting member): 422 naming the header. */
const reusedKey = (id: KeyId) =>
  new AppError(
    'Unprocessable Entity',
    `Header '${IDEMPOTENCY_HEADER}' '${id.key}' was first sent with another request to this operation (another body, path, query or X-Acting-User-Id); a new request needs a new key.`,
    { botOnly: true },
  );

/**
 * What a repeat answers, from the item holding its key: the kept answer
 * with `Idempotent-Replayed: true`; 422 (another request's key) or 409
 * (still running) thrown; null when there is no answer to give (the item
 * went away, or did not open and is let go), and the caller tries again.
 */
async function answerFrom(id: KeyId, fingerprint: string, holder: KeyRecord | null, now: number): Promise<APIGatewayProxyResult | null> {
  if (!holder) return null;
  if (holder.fingerprint !== fingerprint) throw reusedKey(id);
  if (holder.state === 'unreadable') {
    // The key's hash found it, so only an altered item or a change of sealing does this: what the first call
    // answered is lost, and the repeat is run as a first call rather than refused for the rest of the 24 hours.
    log('error', 'a kept idempotency answer did not open with its key; it is let go and the call runs again', { operation: id.operation });
    await releaseKey(id, holder.attempt);
    return null;
  }
  if (holder.state === 'kept') {
    return { statusCode: holder.answer.statusCode, headers: { ...holder.answer.headers, [REPLAYED_HEADER]: 'true' }, body: holder.answer.body };
  }
  throw inProgress(Math.max(1, holder.expiresAt - now));
}

/**
 * Takes the request's key for this call (null: run it), or answers the
 * repeat: the first call's kept answer with `Idempotent-Replayed: true`;
 * 422 when the key was first sent with another request (body, path, query
 * or acting member); 409 with `Retry-After` while the first call runs.
 */
export async function takeKey(context: Context, id: KeyId, fingerprint: string): Promise<APIGatewayProxyResult | null> {
  const left = typeof context.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : 0;
  const attempt = randomUUID();
  for (let tries = 0; tries < CLAIM_TRIES; tries++) {
    const nowMs = Date.now();
    const now = Math.floor(nowMs / 1000);
    const leaseUntil = Math.ceil((nowMs + (left > 0 ? left : DEFAULT_LEASE_MS) + LEASE_MARGIN_MS) / 1000);
    const taken = await claimKey(id, { fingerprint, attempt, leaseUntil, now });
    if (taken.claimed) {
      held.set(context, { id, fingerprint, attempt });
      return null;
    }
    const replay = await answerFrom(id, fingerprint, taken.holder, now);
    if (replay) return replay;
  }
  throw inProgress(1);
}

/**
 * A key a use case keeps itself (`RouteSpec.idempotency: 'use-case'`): the
 * endpoint neither takes nor keeps it, and hands the use case what it needs
 * to. `take` is the endpoint's own mechanism, for the calls the use case
 * cannot make safe to repeat by itself: null to run (the answer is then
 * kept as for every route), or the repeat's answer.
 */
export interface KeyedCall {
  id: KeyId;
  fingerprint: string;
  take(): Promise<APIGatewayProxyResult | null>;
}

/**
 * What {@link keepOnce} found: this call's answer kept, or the answer a
 * repeat gives instead, and whether the call that kept it relied on items
 * it found written (an attempt running beside it may have written them).
 */
export type KeptOnce = { kept: true } | { kept: false; replay: APIGatewayProxyResult; relied: boolean };

/**
 * Keeps a call's final answer under its key in its one write (behaviour
 * §16), for a use case whose items are keyed by the key and written only
 * where absent, so a first call that failed before this write is finished
 * by its repeat: `kept` when no live item held the key; else what a repeat
 * answers (the kept answer, replayed), or 422 (another request's key) or
 * 409 (a call holding the key through {@link takeKey} still runs) thrown.
 * An answer too large for an item is not kept (its repeat runs again).
 * `relied`: the call found some of its items already written (by an
 * earlier attempt, or one running beside it) and its answer stands for them.
 */
export async function keepOnce(id: KeyId, fingerprint: string, answer: APIGatewayProxyResult, relied: boolean): Promise<KeptOnce> {
  if (!isFinal(answer.statusCode)) return { kept: true };
  const body = answer.body ?? '';
  const kept = { fingerprint, attempt: randomUUID(), relied, answer: { statusCode: answer.statusCode, headers: stringHeaders(answer.headers), body } };
  for (let tries = 0; tries < CLAIM_TRIES; tries++) {
    const now = Math.floor(Date.now() / 1000);
    const outcome = await keepFirst(id, { ...kept, keepUntil: now + KEEP_SECONDS, now });
    if (outcome === 'too-large' || outcome.kept) return { kept: true };
    const replay = await answerFrom(id, fingerprint, outcome.holder, now);
    if (replay) return { kept: false, replay, relied: outcome.holder?.state === 'kept' && outcome.holder.relied };
  }
  throw inProgress(1);
}

/**
 * The answer a repeat gives when its use case cannot run it again (the
 * module switched off since): the first call's kept answer, replayed, or
 * 422 / 409 thrown as {@link takeKey} answers; null when the key holds nothing.
 */
export async function replayOf(id: KeyId, fingerprint: string): Promise<APIGatewayProxyResult | null> {
  const now = Math.floor(Date.now() / 1000);
  return answerFrom(id, fingerprint, await readKey(id, now), now);
}

/** The key's seed for the call's message nonces (shared/platform/nonce.ts): the key in its scope and operation. */
export const nonceSeedOf = (id: KeyId): string => `${id.scope}\u0000${id.operation}\u0000${id.key}`;

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * Around the endpoint's middleware (so the answer is the one sent, error
 * envelopes included): a final answer is kept for {@link KEEP_SECONDS};
 * any other (5xx, 409, 429, or a failure past the envelope) lets the key go
 * so a repeat runs again. A failure to write either is logged and the
 * answer still sent: the running item's lease then ends it.
 */
export function keepAnswers(handler: LambdaHandler): LambdaHandler {
  return async (event, context) => {
    let result: APIGatewayProxyResult | undefined;
    try {
      result = await handler(event, context);
      return result;
    } finally {
      const key = held.get(context);
      if (key) {
        held.delete(context);
        await settle(key, result);
      }
    }
  };
}

async function settle(key: HeldKey, result: APIGatewayProxyResult | undefined): Promise<void> {
  try {
    if (result && isFinal(result.statusCode)) {
      const answer = { statusCode: result.statusCode, headers: stringHeaders(result.headers), body: result.body ?? '' };
      const keepUntil = Math.floor(Date.now() / 1000) + KEEP_SECONDS;
      const outcome = await keepAnswer(key.id, { fingerprint: key.fingerprint, attempt: key.attempt, keepUntil, answer });
      if (outcome !== 'too-large') return;
      log('warn', 'answer too large to keep for its idempotency key; the key is let go', { operation: key.id.operation, bytes: answer.body.length });
    }
    await releaseKey(key.id, key.attempt);
  } catch (error) {
    log('error', 'could not settle an idempotency key; its lease ends it', { operation: key.id.operation, error: errorField(error) });
  }
}

function stringHeaders(headers: APIGatewayProxyResult['headers']): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name, String(value)]));
}

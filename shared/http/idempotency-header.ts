/**
 * The names and rules of `Idempotency-Key` (behaviour §16), apart from its
 * handling (shared/http/idempotency.ts) so the OpenAPI document and the
 * functions answering reads name them without carrying the handling.
 */

/** The request header naming a call's identity. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** The answer header of a repeat answered with the first call's answer. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** What a key may be: 1 to 255 of these characters (none of them `#`, which the record's key joins with). */
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{1,255}$/;
/** How long a final answer is kept and replayed: at least the 24 hours behaviour §16 promises (the TTL removes it some time after). */
export const KEEP_SECONDS = 24 * 60 * 60;
/** The methods that take a key. */
export const KEYED_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

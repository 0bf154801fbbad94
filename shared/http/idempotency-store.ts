/**
 * The records of `Idempotency-Key` (behaviour §16): one item per key in its
 * scope and operation, the only file issuing their commands. An item is
 * either `running` (a first call holds the key until its lease ends) or
 * `kept` (the call's final answer, replayed until `expires_at`). Each lives
 * in a partition of its own, so a bot's stream of events spreads over the
 * table instead of heating one partition, and DynamoDB's TTL removes it.
 * Nothing in it is readable without the caller's key: the partition holds
 * the key's hash, and the answer is sealed by the key (idempotency-seal.ts).
 */
import { entity, partition } from '../db/entity.js';
import { fixedKey } from '../db/fixed-key.js';
import { type KeptAnswer, type KeyId, answerBytes, answerOf, open, seal } from './idempotency-seal.js';

export type { KeptAnswer, KeyId };

/**
 * A key's record, as read back: `unreadable` is a kept answer that does not
 * open with the key that found it (altered in the table, or sealed by
 * another scheme), which the caller lets go so the call runs again.
 */
export type KeyRecord =
  | { state: 'running'; fingerprint: string; attempt: string; expiresAt: number }
  | { state: 'kept'; fingerprint: string; attempt: string; expiresAt: number; answer: KeptAnswer; relied: boolean }
  | { state: 'unreadable'; fingerprint: string; attempt: string; expiresAt: number };

/** A key's item as stored: a kept answer still sealed. */
type StoredRecord =
  | { state: 'running'; fingerprint: string; attempt: string; expiresAt: number }
  | { state: 'kept'; fingerprint: string; attempt: string; expiresAt: number; sealed: Uint8Array; gzipped: boolean; relied: boolean };

const keyPartition = partition<[string, string, string]>('IDEM#');

/**
 * A key's item: `IDEM#<scope>#<operation>#<hash>`, the hash being the raw
 * key's SHA-256 (base64url), so the key that seals the answer is never
 * stored beside it.
 */
export const IdempotencyKeyEntity = entity<KeyId, StoredRecord>({
  name: 'idempotency_key',
  prefix: 'IDEM',
  pk: ({ scope, operation, key }) => keyPartition(scope, operation, fixedKey(key)),
  parse: (item) => {
    const base = { fingerprint: String(item.fingerprint), attempt: String(item.attempt), expiresAt: Number(item.expires_at) };
    if (item.state !== 'kept') return { state: 'running', ...base };
    const sealed = item.answer instanceof Uint8Array ? item.answer : new Uint8Array();
    return { state: 'kept', ...base, sealed, gzipped: item.gzipped === true, relied: item.relied === true };
  },
});

/** A stored record, its answer opened with the key that found it (zlib is loaded only for a gzipped one). */
async function opened(id: KeyId, stored: StoredRecord): Promise<KeyRecord> {
  if (stored.state === 'running') return stored;
  const { sealed, gzipped, relied, ...base } = stored;
  let plain = open(id, sealed);
  if (plain && gzipped) {
    const { gunzipSync } = await import('node:zlib');
    try {
      plain = gunzipSync(plain);
    } catch {
      plain = null;
    }
  }
  const answer = plain && answerOf(plain);
  return answer ? { ...base, state: 'kept', answer, relied } : { ...base, state: 'unreadable' };
}

/**
 * Takes the key for a first call: written when no live item holds it (none,
 * or one whose time ran out: a kept answer past its 24 hours, a running
 * call past its lease). Otherwise answers the item that holds it: from the
 * refused write itself where the table returns it (DynamoDB), else read
 * again, strongly consistent (dynalite ignores the request for it); null
 * when it went away between the two (a call that released it), and the
 * caller tries again.
 */
export async function claimKey(
  id: KeyId,
  claim: { fingerprint: string; attempt: string; leaseUntil: number; now: number },
): Promise<{ claimed: true } | { claimed: false; holder: KeyRecord | null }> {
  const put = await IdempotencyKeyEntity.put(
    id,
    { state: 'running', fingerprint: claim.fingerprint, attempt: claim.attempt, expires_at: claim.leaseUntil },
    { condition: { $or: [{ pk: { exists: false } }, { expires_at: { lt: claim.now } }] }, holder: true },
  );
  if (put.written) return { claimed: true };
  return { claimed: false, holder: put.holder && (await opened(id, put.holder)) };
}

/**
 * Keeps a call's final answer under its key in one write, for a use case
 * that made what it stores safe to repeat itself (keyed items written only
 * where absent, behaviour §16): written when no live item holds the key,
 * as {@link claimKey} takes it; otherwise the item that holds it, as
 * {@link claimKey} answers it. `too-large` as {@link keepAnswer}.
 * `relied`: the call found some of its items written by an earlier attempt
 * and answers for them too (so a later attempt that wrote one keeps it).
 */
export async function keepFirst(
  id: KeyId,
  kept: { fingerprint: string; attempt: string; keepUntil: number; now: number; answer: KeptAnswer; relied: boolean },
): Promise<{ kept: true } | { kept: false; holder: KeyRecord | null } | 'too-large'> {
  const sealed = await sealedAnswer(id, kept.answer);
  if (sealed === 'too-large') return sealed;
  const put = await IdempotencyKeyEntity.put(
    id,
    { ...keptItem(kept, sealed), ...(kept.relied ? { relied: true } : {}) },
    { condition: { $or: [{ pk: { exists: false } }, { expires_at: { lt: kept.now } }] }, holder: true },
  );
  if (put.written) return { kept: true };
  return { kept: false, holder: put.holder && (await opened(id, put.holder)) };
}

/** The item holding a key, read consistently; null when there is none or its time ran out. */
export async function readKey(id: KeyId, now: number): Promise<KeyRecord | null> {
  const stored = await IdempotencyKeyEntity.get(id);
  return stored && stored.expiresAt >= now ? opened(id, stored) : null;
}

/** Answers up to this many bytes are kept as they are; longer ones (up to the 1 MiB an answer may take) gzipped before sealing. */
const INLINE_ANSWER_BYTES = 256 * 1024;
/** What a kept item's sealed answer may take, under DynamoDB's 400 KB item limit with the rest of the item. */
const MAX_SEALED_BYTES = 380 * 1024;

/**
 * Keeps a first call's final answer until `keepUntil` (epoch seconds), in
 * place of its running item: `kept`; `lost` when the item is no longer
 * this attempt's (its lease ran out and a repeat took the key);
 * `too-large` when even gzipped it does not fit in an item (the caller lets
 * the key go).
 */
export async function keepAnswer(
  id: KeyId,
  kept: { fingerprint: string; attempt: string; keepUntil: number; answer: KeptAnswer },
): Promise<'kept' | 'lost' | 'too-large'> {
  const sealed = await sealedAnswer(id, kept.answer);
  if (sealed === 'too-large') return sealed;
  const written = await IdempotencyKeyEntity.put(id, keptItem(kept, sealed), { condition: { attempt: kept.attempt } });
  return written ? 'kept' : 'lost';
}

/** The answer sealed by its key, gzipped first when long; `too-large` when even so it does not fit in an item. */
async function sealedAnswer(id: KeyId, answer: KeptAnswer): Promise<{ sealed: Uint8Array; gzipped: boolean } | 'too-large'> {
  let plain: Uint8Array = answerBytes(answer);
  const gzipped = plain.length > INLINE_ANSWER_BYTES;
  if (gzipped) {
    const { gzipSync } = await import('node:zlib');
    plain = gzipSync(plain);
  }
  const sealed = seal(id, plain);
  return sealed.length > MAX_SEALED_BYTES ? 'too-large' : { sealed, gzipped };
}

/** A kept item's attributes. */
const keptItem = (kept: { fingerprint: string; attempt: string; keepUntil: number }, { sealed, gzipped }: { sealed: Uint8Array; gzipped: boolean }) => ({
  state: 'kept',
  fingerprint: kept.fingerprint,
  attempt: kept.attempt,
  expires_at: kept.keepUntil,
  answer: sealed,
  ...(gzipped ? { gzipped: true } : {}),
});

/** Lets go of a key whose call ended without a final answer, so a repeat runs again; false when it was no longer this attempt's. */
export function releaseKey(id: KeyId, attempt: string): Promise<boolean> {
  return IdempotencyKeyEntity.delete(id, { condition: { attempt } });
}

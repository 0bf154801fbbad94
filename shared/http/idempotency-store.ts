/**
 * The records of `Idempotency-Key` (behaviour §16): one item per key in its
 * scope and operation, the only file issuing their commands. An item is
 * either `running` (a first call holds the key until its lease ends) or
 * `kept` (the call's final answer, replayed until `expires_at`). Each lives
 * in a partition of its own, so a bot's stream of events spreads over the
 * table instead of heating one partition, and DynamoDB's TTL removes it.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db } from '../db/client.js';
import { type Item, entity, partition } from '../db/entity.js';
import { conditional, isConditionFailed } from '../db/errors.js';
import { tableName } from '../db/table.js';

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

/** A key's record, as read back. */
export type KeyRecord =
  | { state: 'running'; fingerprint: string; attempt: string; expiresAt: number }
  | { state: 'kept'; fingerprint: string; attempt: string; expiresAt: number; answer: KeptAnswer };

const keyPartition = partition<[string, string, string]>('IDEM#');

/** A key's item: `IDEM#<scope>#<operation>#<key>`; no key character is `#` (shared/http/idempotency.ts). */
export const IdempotencyKeyEntity = entity<KeyId, KeyRecord>({
  name: 'idempotency_key',
  prefix: 'IDEM',
  pk: ({ scope, operation, key }) => keyPartition(scope, operation, key),
  parse: (item) => {
    const base = { fingerprint: String(item.fingerprint), attempt: String(item.attempt), expiresAt: Number(item.expires_at) };
    if (item.state !== 'kept') return { state: 'running', ...base };
    return {
      state: 'kept',
      ...base,
      answer: { statusCode: Number(item.status), headers: JSON.parse(String(item.headers)) as Record<string, string>, body: String(item.body) },
    };
  },
});

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
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: IdempotencyKeyEntity.item(id, { state: 'running', fingerprint: claim.fingerprint, attempt: claim.attempt, expires_at: claim.leaseUntil }),
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
        ExpressionAttributeValues: { ':now': claim.now },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { claimed: true };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const returned = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
    if (returned) return { claimed: false, holder: IdempotencyKeyEntity.parse(await inflated(unmarshall(returned) as Item)) };
    const read = await db().send(new GetCommand({ TableName: tableName(), Key: IdempotencyKeyEntity.key(id), ConsistentRead: true }));
    return { claimed: false, holder: read.Item ? IdempotencyKeyEntity.parse(await inflated(read.Item)) : null };
  }
}

/** Answers up to this many bytes are kept as they are; longer ones (up to the 1 MiB an answer may take) gzipped. */
const INLINE_BODY_BYTES = 256 * 1024;
/** What a kept item's body may take, under DynamoDB's 400 KB item limit with the rest of the item. */
const MAX_STORED_BODY_BYTES = 380 * 1024;

/** A kept item's body as text again, when it was stored gzipped (zlib is loaded only then). */
async function inflated(item: Item): Promise<Item> {
  if (!(item.body_gz instanceof Uint8Array)) return item;
  const { gunzipSync } = await import('node:zlib');
  return { ...item, body: gunzipSync(item.body_gz).toString('utf8') };
}

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
  const { answer } = kept;
  let body: { body: string } | { body_gz: Uint8Array } = { body: answer.body };
  if (Buffer.byteLength(answer.body, 'utf8') > INLINE_BODY_BYTES) {
    const { gzipSync } = await import('node:zlib');
    const gz = gzipSync(answer.body);
    if (gz.length > MAX_STORED_BODY_BYTES) return 'too-large';
    body = { body_gz: gz };
  }
  const written = await conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: IdempotencyKeyEntity.item(id, {
          state: 'kept',
          fingerprint: kept.fingerprint,
          attempt: kept.attempt,
          expires_at: kept.keepUntil,
          status: answer.statusCode,
          headers: JSON.stringify(answer.headers),
          ...body,
        }),
        ConditionExpression: 'attempt = :attempt',
        ExpressionAttributeValues: { ':attempt': kept.attempt },
      }),
    ),
  );
  return written ? 'kept' : 'lost';
}

/** Lets go of a key whose call ended without a final answer, so a repeat runs again; false when it was no longer this attempt's. */
export function releaseKey(id: KeyId, attempt: string): Promise<boolean> {
  return conditional(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: IdempotencyKeyEntity.key(id),
        ConditionExpression: 'attempt = :attempt',
        ExpressionAttributeValues: { ':attempt': attempt },
      }),
    ),
  );
}

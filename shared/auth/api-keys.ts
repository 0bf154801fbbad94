import { createHash, timingSafeEqual } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.js';
import { entity } from '../db/entity.js';
import { queryAll } from '../db/pagination.js';
import { nextRecordId } from '../db/record-ids.js';
import { tableName } from '../db/table.js';
import { notFound } from '../errors.js';
import { mintId, mintSecret } from '../ids.js';
import { guildKey } from '../modules/store.js';
import type { Caller } from './caller.js';
import { dropUsageKey, registerUsageKey } from './usage-keys.js';
import { errorField, log } from '../observe/log.js';

/**
 * Guild API keys: minted for one guild, shown once, stored as a SHA-256 hash.
 * The bearer token is `gmk.<guild_id>.<key_id>.<secret>`: the guild and key
 * ID locate the item with one read, the secret (256 random bits) is compared
 * by hash. A slow password hash buys nothing for secrets that long.
 *
 * In AWS each key also has an API Gateway key holding its rate
 * (usage-keys.ts); its ID is kept on the item as `usage_key_id`.
 */
const PREFIX = 'gmk';

export interface ApiKeyRecord {
  id: number;
  key_id: string;
  guild_id: string;
  name: string | null;
  created_at: string;
  last_use: string | null;
}

/** A key's item in the guild partition: its record, its `secret_hash` and its `usage_key_id` (never answered). */
const ApiKeyEntity = entity({
  name: 'api_key',
  prefix: 'APIKEY#',
  pk: (f: { guildId: string; keyId: string }) => guildKey(f.guildId),
  sk: (f) => [f.keyId],
  parse: (item): ApiKeyRecord => ({
    id: Number(item.id),
    key_id: String(item.key_id),
    guild_id: String(item.guild_id),
    name: item.name === null || item.name === undefined ? null : String(item.name),
    created_at: String(item.created_at),
    last_use: item.last_use === null || item.last_use === undefined ? null : String(item.last_use),
  }),
});

const hash = (secret: string) => createHash('sha256').update(secret).digest();

export async function createApiKey(guildId: string, name: string | null): Promise<ApiKeyRecord & { secret: string }> {
  const keyId = mintId();
  const secret = mintSecret();
  const record: ApiKeyRecord = {
    id: await nextRecordId('api_key'),
    key_id: keyId,
    guild_id: guildId,
    name,
    created_at: new Date().toISOString(),
    last_use: null,
  };
  // Registered first, so the one write stores it; failed, the key is still valid and the authorizer registers it at first use.
  const usageKeyId = await registerUsageKey(guildId, keyId).catch((error: unknown) => usageKeyFailed(guildId, keyId, error));
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: ApiKeyEntity.item(
        { guildId, keyId },
        { ...record, secret_hash: hash(secret).toString('hex'), ...(usageKeyId ? { usage_key_id: usageKeyId } : {}) },
      ),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { ...record, secret: `${PREFIX}.${guildId}.${keyId}.${secret}` };
}

function usageKeyFailed(guildId: string, keyId: string, error: unknown): null {
  log('error', 'guild key rate not registered', { guild_id: guildId, key_id: keyId, error: errorField(error) });
  return null;
}

/**
 * Gives a key minted without one its API Gateway key (AWS only) and records
 * it on the item, at the key's first use. Best effort: a failure is logged,
 * and API Gateway answers 429 until a later use registers it.
 */
async function attachUsageKey(guildId: string, keyId: string): Promise<void> {
  try {
    const usageKeyId = await registerUsageKey(guildId, keyId);
    if (!usageKeyId) return;
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ApiKeyEntity.key({ guildId, keyId }),
        UpdateExpression: 'SET usage_key_id = :id',
        // A key revoked meanwhile stays revoked.
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':id': usageKeyId },
      }),
    );
  } catch (error) {
    usageKeyFailed(guildId, keyId, error);
  }
}

export async function listApiKeys(guildId: string): Promise<ApiKeyRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': ApiKeyEntity.prefix },
  });
  return items.map(ApiKeyEntity.parse).sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
}

/** One of the guild's keys, read consistently; 404 when the guild has no key of that ID. */
export async function getApiKey(guildId: string, keyId: string): Promise<ApiKeyRecord> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: ApiKeyEntity.key({ guildId, keyId }), ConsistentRead: true }));
  if (!out.Item) throw notFound(`Guild ${guildId} has no API key '${keyId}'.`);
  return ApiKeyEntity.parse(out.Item);
}

export async function revokeApiKey(guildId: string, keyId: string): Promise<ApiKeyRecord> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: ApiKeyEntity.key({ guildId, keyId }), ReturnValues: 'ALL_OLD' }));
  if (!out.Attributes) throw notFound(`Guild ${guildId} has no API key '${keyId}'.`);
  const usageKeyId = out.Attributes.usage_key_id;
  if (typeof usageKeyId === 'string') {
    // The key no longer authenticates; its API Gateway key only counts against the account's quota, so a failure is logged, not answered.
    await dropUsageKey(usageKeyId).catch((error: unknown) =>
      log('error', 'revoked key rate not deleted', { guild_id: guildId, key_id: keyId, usage_key_id: usageKeyId, error: errorField(error) }),
    );
  }
  return ApiKeyEntity.parse(out.Attributes);
}

/** How often `last_use` is written: once a minute is exact enough and keeps reads read-only. */
const LAST_USE_RESOLUTION_MS = 60_000;

/** The guild key a bearer token names, or null when it is not a live key. */
export async function verifyApiKey(token: string): Promise<Caller | null> {
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== PREFIX) return null;
  const [, guildId, keyId, secret] = parts as [string, string, string, string];
  if (!/^[0-9]{1,20}$/.test(guildId) || !/^[A-Za-z0-9_-]{22}$/.test(keyId) || !secret) return null;
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: ApiKeyEntity.key({ guildId, keyId }), ConsistentRead: true }));
  const stored = out.Item?.secret_hash;
  if (typeof stored !== 'string' || !timingSafeEqual(Buffer.from(stored, 'hex'), hash(secret))) return null;
  const lastUse = out.Item?.last_use as string | null | undefined;
  if (!lastUse || Date.now() - Date.parse(lastUse) > LAST_USE_RESOLUTION_MS) {
    // Best effort: a failed bookkeeping write must not refuse a valid key, and a revoked key must not come back.
    await db()
      .send(
        new UpdateCommand({
          TableName: tableName(),
          Key: ApiKeyEntity.key({ guildId, keyId }),
          UpdateExpression: 'SET last_use = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': new Date().toISOString() },
        }),
      )
      .catch(() => undefined);
  }
  if (process.env.USAGE_API_ID && typeof out.Item?.usage_key_id !== 'string') await attachUsageKey(guildId, keyId);
  return { kind: 'guild', guildId, keyId };
}

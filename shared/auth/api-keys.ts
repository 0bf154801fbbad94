import { createHash, timingSafeEqual } from 'node:crypto';
import { entity } from '../db/entity.js';
import { nextRecordId } from '../db/record-ids.js';
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

/** A key as stored: its record, and what is never answered (the secret's hash, the API Gateway key's ID). */
interface StoredApiKey {
  record: ApiKeyRecord;
  secretHash: string | null;
  usageKeyId: string | null;
}

const stringOrNull = (value: unknown) => (value === null || value === undefined ? null : String(value));

/** A key's item in the guild partition: its record, its `secret_hash` and its `usage_key_id`. */
const ApiKeyEntity = entity({
  name: 'api_key',
  prefix: 'APIKEY#',
  pk: (f: { guildId: string }) => guildKey(f.guildId),
  sk: (f: { guildId: string; keyId: string }) => [f.keyId],
  parse: (item): StoredApiKey => ({
    record: {
      id: Number(item.id),
      key_id: String(item.key_id),
      guild_id: String(item.guild_id),
      name: stringOrNull(item.name),
      created_at: String(item.created_at),
      last_use: stringOrNull(item.last_use),
    },
    secretHash: typeof item.secret_hash === 'string' ? item.secret_hash : null,
    usageKeyId: typeof item.usage_key_id === 'string' ? item.usage_key_id : null,
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
  const written = await ApiKeyEntity.put(
    { guildId, keyId },
    { ...record, secret_hash: hash(secret).toString('hex'), ...(usageKeyId ? { usage_key_id: usageKeyId } : {}) },
    { ifAbsent: true },
  );
  // A minted ID is 128 random bits: taken means something is badly wrong, never a key to hand out.
  if (!written) throw new Error(`API key ID ${keyId} of guild ${guildId} is taken`);
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
    // A key revoked meanwhile stays revoked.
    const written = await ApiKeyEntity.update(
      { guildId, keyId },
      { set: { usage_key_id: usageKeyId }, condition: { pk: { exists: true } }, returnValues: 'NONE' },
    );
    if (!written) usageKeyFailed(guildId, keyId, new Error('the key was revoked before its rate was recorded'));
  } catch (error) {
    usageKeyFailed(guildId, keyId, error);
  }
}

export async function listApiKeys(guildId: string): Promise<ApiKeyRecord[]> {
  const keys = await ApiKeyEntity.query({ guildId }, { consistent: false });
  return keys.map((key) => key.record).sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
}

/** One of the guild's keys, read consistently; 404 when the guild has no key of that ID. */
export async function getApiKey(guildId: string, keyId: string): Promise<ApiKeyRecord> {
  const key = await ApiKeyEntity.get({ guildId, keyId });
  if (!key) throw notFound(`Guild ${guildId} has no API key '${keyId}'.`);
  return key.record;
}

export async function revokeApiKey(guildId: string, keyId: string): Promise<ApiKeyRecord> {
  const old = await ApiKeyEntity.delete({ guildId, keyId }, { returnOld: true });
  if (!old) throw notFound(`Guild ${guildId} has no API key '${keyId}'.`);
  const { usageKeyId } = old;
  if (usageKeyId !== null) {
    // The key no longer authenticates; its API Gateway key only counts against the account's quota, so a failure is logged, not answered.
    await dropUsageKey(usageKeyId).catch((error: unknown) =>
      log('error', 'revoked key rate not deleted', { guild_id: guildId, key_id: keyId, usage_key_id: usageKeyId, error: errorField(error) }),
    );
  }
  return old.record;
}

/** How often `last_use` is written: once a minute is exact enough and keeps reads read-only. */
const LAST_USE_RESOLUTION_MS = 60_000;

/** The guild key a bearer token names, or null when it is not a live key. */
export async function verifyApiKey(token: string): Promise<Caller | null> {
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== PREFIX) return null;
  const [, guildId, keyId, secret] = parts as [string, string, string, string];
  if (!/^[0-9]{1,20}$/.test(guildId) || !/^[A-Za-z0-9_-]{22}$/.test(keyId) || !secret) return null;
  const stored = await ApiKeyEntity.get({ guildId, keyId });
  if (!stored || stored.secretHash === null || !timingSafeEqual(Buffer.from(stored.secretHash, 'hex'), hash(secret))) return null;
  const lastUse = stored.record.last_use;
  if (!lastUse || Date.now() - Date.parse(lastUse) > LAST_USE_RESOLUTION_MS) {
    // Best effort: a failed bookkeeping write must not refuse a valid key, and a revoked key must not come back.
    await ApiKeyEntity.update(
      { guildId, keyId },
      { set: { last_use: new Date().toISOString() }, condition: { pk: { exists: true } }, returnValues: 'NONE' },
    ).catch(() => undefined);
  }
  if (process.env.USAGE_API_ID && stored.usageKeyId === null) await attachUsageKey(guildId, keyId);
  return { kind: 'guild', guildId, keyId };
}

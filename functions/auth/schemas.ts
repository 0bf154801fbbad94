import * as z from 'zod/mini';
import { meta, orNull, recordId, snowflake, snowflakeOut, textId, timestamp } from '#shared/http/schemas.js';

/** A guild API key record (behaviour §4): never its secret. */
export const ApiKeyRecord = meta(
  z.object({
    id: recordId,
    key_id: z.string(),
    guild_id: snowflakeOut,
    name: z.nullable(z.string()),
    created_at: timestamp,
    last_use: z.nullable(timestamp),
  }),
  { id: 'ApiKey' },
);

export const ApiKeyAnswer = z.object({ api_key: ApiKeyRecord });
export const NewApiKeyAnswer = z.object({
  api_key: z.extend(ApiKeyRecord, { secret: meta(z.string(), { description: 'The bearer token, shown this once' }) }),
});
export const ApiKeysAnswer = z.object({ api_keys: z.array(ApiKeyRecord) });

/** `POST /auth/api-keys`: the guild and an optional name for the key. */
export const CreateApiKeyBody = z.object({
  guild_id: snowflake,
  name: orNull(z.string().check(z.maxLength(100))),
});

/** A key's ID, as minted (`key_id` of the record). */
const keyId = textId(z.string().check(z.maxLength(64)));

/** `DELETE /auth/api-keys`: the guild and the key to revoke. */
export const DeleteApiKeyBody = z.object({ guild_id: snowflake, key_id: keyId });

/** `GET /auth/api-key/{key_id}`: the key asked for. */
export const ApiKeyPath = z.object({ key_id: keyId });

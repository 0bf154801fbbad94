import * as z from 'zod/mini';
import { meta, orNull, recordId, snowflake, snowflakeOut, textId, timestamp } from '#shared/http/schemas.js';
import { built } from '#shared/built.js';

/** A guild API key record (behaviour §4): never its secret. */
export const ApiKeyRecord = /* @__PURE__ */ built(() =>
  meta(
    z.object({
      id: recordId,
      key_id: z.string(),
      guild_id: snowflakeOut,
      name: z.nullable(z.string()),
      created_at: timestamp,
      last_use: z.nullable(timestamp),
    }),
    { id: 'ApiKey' },
  ),
);

export const ApiKeyAnswer = /* @__PURE__ */ z.object({ api_key: ApiKeyRecord });
export const NewApiKeyAnswer = /* @__PURE__ */ built(() =>
  z.object({
    api_key: z.extend(ApiKeyRecord, { secret: meta(z.string(), { description: 'The bearer token, shown this once' }) }),
  }),
);
export const ApiKeysAnswer = /* @__PURE__ */ built(() => z.object({ api_keys: z.array(ApiKeyRecord) }));

/** `POST /auth/api-keys`: the guild and an optional name for the key. */
export const CreateApiKeyBody = /* @__PURE__ */ built(() =>
  z.object({
    guild_id: snowflake,
    name: orNull(z.string().check(z.maxLength(100))),
  }),
);

/** A key's ID, as minted (`key_id` of the record). */
const keyId = /* @__PURE__ */ built(() => textId(z.string().check(z.maxLength(64))));

/** `DELETE /auth/api-keys`: the guild and the key to revoke. */
export const DeleteApiKeyBody = /* @__PURE__ */ z.object({ guild_id: snowflake, key_id: keyId });

/** `GET /auth/api-key/{key_id}`: the key asked for. */
export const ApiKeyPath = /* @__PURE__ */ z.object({ key_id: keyId });

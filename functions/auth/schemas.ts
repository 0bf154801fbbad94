import { z } from 'zod';
import { recordId, snowflakeOut, timestamp } from '../../shared/http/schemas.js';

/** A guild API key record (contract 4): never its secret. */
export const ApiKeyRecord = z.object({
  id: recordId,
  key_id: z.string(),
  guild_id: snowflakeOut,
  name: z.string().nullable(),
  created_at: timestamp,
  last_use: timestamp.nullable(),
}).meta({ id: 'ApiKey' });

export const ApiKeyAnswer = z.object({ api_key: ApiKeyRecord });
export const NewApiKeyAnswer = z.object({
  api_key: ApiKeyRecord.extend({ secret: z.string().meta({ description: 'The bearer token, shown this once' }) }),
});
export const ApiKeysAnswer = z.object({ api_keys: z.array(ApiKeyRecord) });

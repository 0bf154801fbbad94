import { listApiKeys } from '#shared/auth/api-keys.js';
import { endpoint } from '#shared/http/endpoint.js';
import { guildQuery } from '#shared/http/schemas.js';
import { ApiKeysAnswer } from './schemas.js';

export const handler = endpoint({ query: guildQuery, response: ApiKeysAnswer }, async ({ query }) => ({ api_keys: await listApiKeys(query.guild_id) }));

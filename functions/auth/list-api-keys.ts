import { listApiKeys } from '../../shared/auth/api-keys.js';
import { endpoint } from '../../shared/http/endpoint.js';
import { guildQuery } from '../../shared/http/schemas.js';

export const handler = endpoint({ query: guildQuery }, async ({ query }) => ({ api_keys: await listApiKeys(query.guild_id) }));

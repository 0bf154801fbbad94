import { getApiKey } from '#shared/auth/api-keys.js';
import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';

/** Internal: one key of the guild, to see its name and last use without listing them all (behaviour §4). */
export const handler = endpoint(routes.getApiKey, async ({ query, path }) => ({ api_key: await getApiKey(query.guild_id, path.key_id) }));

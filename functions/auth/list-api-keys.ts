import { listApiKeys } from '#shared/auth/api-keys.js';
import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.listApiKeys, async ({ query }) => ({ api_keys: await listApiKeys(query.guild_id) }));

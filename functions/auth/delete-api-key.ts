import { revokeApiKey } from '#shared/auth/api-keys.js';
import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.deleteApiKey, async ({ body }) => ({
  api_key: await revokeApiKey(body.guild_id, body.key_id),
}));

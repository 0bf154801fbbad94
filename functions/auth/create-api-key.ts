import { createApiKey } from '#shared/auth/api-keys.js';
import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.createApiKey, async ({ body }) => ({
  api_key: await createApiKey(body.guild_id, body.name),
}));

import { createApiKey } from '#shared/auth/api-keys.js';
import { endpoint } from '#shared/http/endpoint.js';
import { CreateApiKeyBody, NewApiKeyAnswer } from './schemas.js';

export const handler = endpoint({ body: CreateApiKeyBody, response: NewApiKeyAnswer }, async ({ body }) => ({
  api_key: await createApiKey(body.guild_id, body.name),
}));

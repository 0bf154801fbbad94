import { revokeApiKey } from '#shared/auth/api-keys.js';
import { endpoint } from '#shared/http/endpoint.js';
import { ApiKeyAnswer, DeleteApiKeyBody } from './schemas.js';

export const handler = endpoint({ body: DeleteApiKeyBody, response: ApiKeyAnswer }, async ({ body }) => ({
  api_key: await revokeApiKey(body.guild_id, body.key_id),
}));

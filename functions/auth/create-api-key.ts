import * as z from 'zod/mini';
import { createApiKey } from '#shared/auth/api-keys.js';
import { endpoint } from '#shared/http/endpoint.js';
import { orNull, snowflake } from '#shared/http/schemas.js';
import { NewApiKeyAnswer } from './schemas.js';

const Body = z.object({
  guild_id: snowflake,
  name: orNull(z.string().check(z.maxLength(100))),
});

export const handler = endpoint({ body: Body, response: NewApiKeyAnswer }, async ({ body }) => ({ api_key: await createApiKey(body.guild_id, body.name) }));

import * as z from 'zod/mini';
import { revokeApiKey } from '#shared/auth/api-keys.js';
import { endpoint } from '#shared/http/endpoint.js';
import { snowflake } from '#shared/http/schemas.js';
import { ApiKeyAnswer } from './schemas.js';

const Body = z.object({ guild_id: snowflake, key_id: z.string().check(z.minLength(1), z.maxLength(64)) });

export const handler = endpoint({ body: Body, response: ApiKeyAnswer }, async ({ body }) => ({ api_key: await revokeApiKey(body.guild_id, body.key_id) }));

import { z } from 'zod';
import { createApiKey } from '../../shared/auth/api-keys.js';
import { endpoint } from '../../shared/http/endpoint.js';
import { snowflake } from '../../shared/http/schemas.js';
import { NewApiKeyAnswer } from './schemas.js';

const Body = z.object({ guild_id: snowflake, name: z.string().max(100).nullish().transform((v) => v ?? null) });

export const handler = endpoint({ body: Body, response: NewApiKeyAnswer }, async ({ body }) => ({ api_key: await createApiKey(body.guild_id, body.name) }));

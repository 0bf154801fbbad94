import { z } from 'zod';
import { createApiKey } from '../../shared/auth/api-keys.js';
import { endpoint } from '../../shared/http/endpoint.js';
import { snowflake } from '../../shared/http/schemas.js';

const Body = z.object({ guild_id: snowflake, name: z.string().max(100).nullish().transform((v) => v ?? null) });

export const handler = endpoint({ body: Body }, async ({ body }) => ({ api_key: await createApiKey(body.guild_id, body.name) }));

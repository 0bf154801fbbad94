import { endpoint } from '#shared/http/endpoint.js';
import { ResponseAnswer } from './model.js';
import { createResponse } from './responses.js';
import { CreateResponseBody } from './schemas.js';

export const handler = endpoint({ body: CreateResponseBody, response: ResponseAnswer }, ({ body: { guild_id, ...input } }) => createResponse(guild_id, input));

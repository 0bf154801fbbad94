import { endpoint } from '#shared/http/endpoint.js';
import { ResponseAnswer } from './model.js';
import { deleteResponse } from './responses.js';
import { GuildBody, ResponsePath } from './schemas.js';

/** Settings that named the response are set to null. */
export const handler = endpoint({ body: GuildBody, path: ResponsePath, response: ResponseAnswer }, ({ body, path }) =>
  deleteResponse(body.guild_id, path.response_id),
);

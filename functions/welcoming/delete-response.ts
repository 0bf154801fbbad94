import { endpoint } from '#shared/http/endpoint.js';
import { deleteResponse } from './responses.js';
import * as routes from './routes.js';

/** Settings that named the response are set to null. */
export const handler = endpoint(routes.deleteResponse, ({ body, path }) => deleteResponse(body.guild_id, path.response_id));

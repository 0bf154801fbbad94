import { endpoint } from '#shared/http/endpoint.js';
import { createResponse } from './responses.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.createResponse, ({ body: { guild_id, ...input } }) => createResponse(guild_id, input));

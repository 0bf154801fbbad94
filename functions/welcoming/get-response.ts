import { endpoint } from '#shared/http/endpoint.js';
import { getResponseRecord } from './responses.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.getResponse, ({ query, path }) => getResponseRecord(query.guild_id, path.response_id));

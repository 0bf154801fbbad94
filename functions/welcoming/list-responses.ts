import { endpoint } from '#shared/http/endpoint.js';
import { listResponseRecords } from './responses.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.listResponses, ({ query }) => listResponseRecords(query.guild_id, query));

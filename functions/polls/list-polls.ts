import { endpoint } from '#shared/http/endpoint.js';
import { listPollRecords } from './polls.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.listPolls, ({ query }) => listPollRecords(query.guild_id, query));

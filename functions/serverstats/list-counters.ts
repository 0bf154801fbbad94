import { endpoint } from '#shared/http/endpoint.js';
import { listCounterRecords } from './counters.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.listCounters, ({ query }) => listCounterRecords(query.guild_id));

import { endpoint } from '#shared/http/endpoint.js';
import { getCounterRecord } from './counters.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.getCounter, ({ path, query }) => getCounterRecord(query.guild_id, path.counter_id));

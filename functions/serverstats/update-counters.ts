import { endpoint } from '#shared/http/endpoint.js';
import { requestRefresh } from './counters.js';
import * as routes from './routes.js';

/** Internal: refreshes the counters of one guild (or of every guild) behind the answer. */
export const handler = endpoint(routes.updateCounters, ({ body }) => requestRefresh(body.guild_id));

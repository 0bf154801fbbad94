import { endpoint } from '#shared/http/endpoint.js';
import { deleteCounter } from './counters.js';
import * as routes from './routes.js';

/** Deletes the counter and its channel. */
export const handler = endpoint(routes.deleteCounter, ({ path, body }) => deleteCounter(body.guild_id, path.counter_id));

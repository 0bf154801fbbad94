import { endpoint } from '#shared/http/endpoint.js';
import { createCounter } from './counters.js';
import * as routes from './routes.js';

/** Creates a voice channel in the counters category, named with the current figure. */
export const handler = endpoint(routes.createCounter, ({ body }) => createCounter(body.guild_id, body));

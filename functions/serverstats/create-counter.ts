import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { createCounter } from './counters.js';
import { CounterAnswer, CreateCounterBody } from './schemas.js';

/** Creates a voice channel in the counters category, named with the current figure. */
export const handler = endpoint({ body: CreateCounterBody, owned: checkOwned, response: CounterAnswer }, ({ body }) => createCounter(body.guild_id, body));

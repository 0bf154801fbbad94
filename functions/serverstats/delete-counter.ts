import { endpoint } from '#shared/http/endpoint.js';
import { guildBody } from '#shared/http/schemas.js';
import { deleteCounter } from './counters.js';
import { CounterAnswer, CounterPath } from './schemas.js';

/** Deletes the counter and its channel. */
export const handler = endpoint({ path: CounterPath, body: guildBody, response: CounterAnswer }, ({ path, body }) =>
  deleteCounter(body.guild_id, path.counter_id),
);

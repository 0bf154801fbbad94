import { endpoint } from '#shared/http/endpoint.js';
import { guildQuery } from '#shared/http/schemas.js';
import { getCounterRecord } from './counters.js';
import { CounterAnswer, CounterPath } from './schemas.js';

export const handler = endpoint({ path: CounterPath, query: guildQuery, response: CounterAnswer }, ({ path, query }) =>
  getCounterRecord(query.guild_id, path.counter_id),
);

import { endpoint } from '#shared/http/endpoint.js';
import { guildQuery } from '#shared/http/schemas.js';
import { listCounterRecords } from './counters.js';
import { CountersAnswer } from './schemas.js';

export const handler = endpoint({ query: guildQuery, response: CountersAnswer }, ({ query }) => listCounterRecords(query.guild_id));

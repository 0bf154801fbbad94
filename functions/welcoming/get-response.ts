import { endpoint } from '#shared/http/endpoint.js';
import { ResponseAnswer } from './model.js';
import { getResponseRecord } from './responses.js';
import { GuildQuery, ResponsePath } from './schemas.js';

export const handler = endpoint({ query: GuildQuery, path: ResponsePath, response: ResponseAnswer }, ({ query, path }) =>
  getResponseRecord(query.guild_id, path.response_id),
);

import { endpoint } from '#shared/http/endpoint.js';
import { ResponsesAnswer } from './model.js';
import { listResponseRecords } from './responses.js';
import { ListResponsesQuery } from './schemas.js';

export const handler = endpoint({ query: ListResponsesQuery, response: ResponsesAnswer }, ({ query }) =>
  listResponseRecords(query.guild_id, query.response_type),
);

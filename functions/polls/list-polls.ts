import { endpoint } from '../../shared/http/endpoint.js';
import { listPollRecords } from './polls.js';
import { ListPollsQuery } from './schemas.js';

export const handler = endpoint({ query: ListPollsQuery }, ({ query }) => listPollRecords(query.guild_id, query.page, query.page_size));

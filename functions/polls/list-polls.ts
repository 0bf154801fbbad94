import { endpoint } from '#shared/http/endpoint.js';
import { listPollRecords } from './polls.js';
import { ListPollsQuery, PollsPage } from './schemas.js';

export const handler = endpoint({ query: ListPollsQuery, response: PollsPage }, ({ query }) => listPollRecords(query.guild_id, query.page, query.page_size));

import { endpoint } from '#shared/http/endpoint.js';
import { listTagRecords } from './tags.js';
import * as routes from './routes.js';

/** Newest first, paginated; `name` answers the tag holding that name from its pointer, never a scan. */
export const handler = endpoint(routes.listEntries, ({ query }) => listTagRecords(query.guild_id, query, query.name));

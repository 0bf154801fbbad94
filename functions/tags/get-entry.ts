import { endpoint } from '#shared/http/endpoint.js';
import { getTagRecord } from './tags.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.getEntry, ({ query, path }) => getTagRecord(query.guild_id, path.entry_id));

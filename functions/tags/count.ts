import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';
import { countTags } from './tags.js';

/** How many tags the guild has. */
export const handler = endpoint(routes.count, ({ query }) => countTags(query.guild_id));

import { endpoint } from '#shared/http/endpoint.js';
import { listEntries } from './entries.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.listEntries, ({ path, query }) => listEntries(query.guild_id, path.reactionrole_panel_id));

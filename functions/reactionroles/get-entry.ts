import { endpoint } from '#shared/http/endpoint.js';
import { getEntry } from './entries.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.getEntry, ({ path, query }) => getEntry(query.guild_id, path.reactionrole_panel_id, path.reactionrole_entry_id));

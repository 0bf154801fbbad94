import { endpoint } from '#shared/http/endpoint.js';
import { editEntry } from './entries.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.editEntry, ({ path, body }) => editEntry(body.guild_id, path.reactionrole_panel_id, path.reactionrole_entry_id, body));

import { endpoint } from '#shared/http/endpoint.js';
import { deleteEntry } from './entries.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.deleteEntry, ({ path, body }) => deleteEntry(body.guild_id, path.reactionrole_panel_id, path.reactionrole_entry_id));

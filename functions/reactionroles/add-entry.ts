import { endpoint } from '#shared/http/endpoint.js';
import { addEntry } from './entries.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.addEntry, ({ path, body }) => addEntry(body.guild_id, path.reactionrole_panel_id, body));

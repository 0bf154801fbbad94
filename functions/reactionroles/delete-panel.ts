import { endpoint } from '#shared/http/endpoint.js';
import { deletePanel } from './panels.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.deletePanel, ({ path, body }) => deletePanel(body.guild_id, path.reactionrole_panel_id));

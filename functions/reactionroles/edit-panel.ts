import { endpoint } from '#shared/http/endpoint.js';
import { editPanel } from './panels.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.editPanel, ({ path, body }) => editPanel(body.guild_id, path.reactionrole_panel_id, body));

import { endpoint } from '#shared/http/endpoint.js';
import { getPanel } from './panels.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.getPanel, ({ path, query }) => getPanel(query.guild_id, path.reactionrole_panel_id));

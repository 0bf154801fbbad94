import { endpoint } from '#shared/http/endpoint.js';
import { listPanels } from './panels.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.listPanels, ({ query }) => listPanels(query.guild_id, query));

import { endpoint } from '#shared/http/endpoint.js';
import { createPanel } from './panels.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.createPanel, ({ body }) => createPanel(body.guild_id, body));

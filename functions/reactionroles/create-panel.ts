import { endpoint } from '../../shared/http/endpoint.js';
import { createPanel } from './panels.js';
import { CreatePanelBody } from './schemas.js';

export const handler = endpoint({ body: CreatePanelBody }, ({ body }) => createPanel(body.guild_id, body));

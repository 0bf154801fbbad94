import { endpoint } from '../../shared/http/endpoint.js';
import { createPanel } from './panels.js';
import { CreatePanelBody, PanelAnswer } from './schemas.js';

export const handler = endpoint({ body: CreatePanelBody, response: PanelAnswer }, ({ body }) => createPanel(body.guild_id, body));

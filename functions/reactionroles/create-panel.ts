import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { createPanel } from './panels.js';
import { CreatePanelBody, PanelAnswer } from './schemas.js';

export const handler = endpoint({ body: CreatePanelBody, owned: checkOwned, response: PanelAnswer }, ({ body }) => createPanel(body.guild_id, body));

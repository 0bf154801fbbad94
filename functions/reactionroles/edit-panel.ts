import { endpoint } from '#shared/http/endpoint.js';
import { editPanel } from './panels.js';
import { EditPanelBody, PanelAnswer, PanelPath } from './schemas.js';

export const handler = endpoint({ path: PanelPath, body: EditPanelBody, response: PanelAnswer }, ({ path, body }) =>
  editPanel(body.guild_id, path.reactionrole_panel_id, body),
);

import { endpoint } from '#shared/http/endpoint.js';
import { guildBody } from '#shared/http/schemas.js';
import { deletePanel } from './panels.js';
import { DeletedPanelAnswer, PanelPath } from './schemas.js';

export const handler = endpoint({ path: PanelPath, body: guildBody, response: DeletedPanelAnswer }, ({ path, body }) =>
  deletePanel(body.guild_id, path.reactionrole_panel_id),
);

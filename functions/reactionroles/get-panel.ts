import { endpoint } from '#shared/http/endpoint.js';
import { guildQuery } from '#shared/http/schemas.js';
import { getPanel } from './panels.js';
import { PanelAnswer, PanelPath } from './schemas.js';

export const handler = endpoint({ path: PanelPath, query: guildQuery, response: PanelAnswer }, ({ path, query }) =>
  getPanel(query.guild_id, path.reactionrole_panel_id),
);

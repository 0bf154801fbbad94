import { endpoint } from '../../shared/http/endpoint.js';
import { guildQuery } from '../../shared/http/schemas.js';
import { listEntries } from './entries.js';
import { PanelPath } from './schemas.js';

export const handler = endpoint({ path: PanelPath, query: guildQuery }, ({ path, query }) => listEntries(query.guild_id, path.reactionrole_panel_id));

import { endpoint } from '#shared/http/endpoint.js';
import { guildQuery } from '#shared/http/schemas.js';
import { listEntries } from './entries.js';
import { EntriesAnswer, PanelPath } from './schemas.js';

export const handler = endpoint({ path: PanelPath, query: guildQuery, response: EntriesAnswer }, ({ path, query }) =>
  listEntries(query.guild_id, path.reactionrole_panel_id),
);

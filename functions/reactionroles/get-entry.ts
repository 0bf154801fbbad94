import { endpoint } from '#shared/http/endpoint.js';
import { guildQuery } from '#shared/http/schemas.js';
import { getEntry } from './entries.js';
import { EntryAnswer, EntryPath } from './schemas.js';

export const handler = endpoint({ path: EntryPath, query: guildQuery, response: EntryAnswer }, ({ path, query }) =>
  getEntry(query.guild_id, path.reactionrole_panel_id, path.reactionrole_entry_id),
);

import { endpoint } from '#shared/http/endpoint.js';
import { guildBody } from '#shared/http/schemas.js';
import { deleteEntry } from './entries.js';
import { EntryAnswer, EntryPath } from './schemas.js';

export const handler = endpoint({ path: EntryPath, body: guildBody, response: EntryAnswer }, ({ path, body }) =>
  deleteEntry(body.guild_id, path.reactionrole_panel_id, path.reactionrole_entry_id),
);

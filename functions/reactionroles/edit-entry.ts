import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { editEntry } from './entries.js';
import { EditEntryBody, EntryAnswer, EntryPath } from './schemas.js';

export const handler = endpoint({ path: EntryPath, body: EditEntryBody, owned: checkOwned, response: EntryAnswer }, ({ path, body }) =>
  editEntry(body.guild_id, path.reactionrole_panel_id, path.reactionrole_entry_id, body),
);

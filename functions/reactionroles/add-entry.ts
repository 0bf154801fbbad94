import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { addEntry } from './entries.js';
import { AddEntryBody, EntryAnswer, PanelPath } from './schemas.js';

export const handler = endpoint({ path: PanelPath, body: AddEntryBody, owned: checkOwned, response: EntryAnswer }, ({ path, body }) =>
  addEntry(body.guild_id, path.reactionrole_panel_id, body),
);

import { endpoint } from '../../shared/http/endpoint.js';
import { addEntry } from './entries.js';
import { AddEntryBody, EntryAnswer, PanelPath } from './schemas.js';

export const handler = endpoint({ path: PanelPath, body: AddEntryBody, response: EntryAnswer }, ({ path, body }) => addEntry(body.guild_id, path.reactionrole_panel_id, body));

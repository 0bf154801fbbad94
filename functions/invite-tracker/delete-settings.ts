import { endpoint } from '#shared/http/endpoint.js';
import { guildBody } from '#shared/http/schemas.js';
import { DeletedSettingsAnswer } from './schemas.js';
import { deleteSettings } from './settings.js';

/** Works in any module state: resets the module and removes its invites and uses. */
export const handler = endpoint({ body: guildBody, response: DeletedSettingsAnswer }, ({ body }) => deleteSettings(body.guild_id));

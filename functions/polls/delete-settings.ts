import { endpoint } from '#shared/http/endpoint.js';
import { guildBody } from '#shared/http/schemas.js';
import { deleteSettings } from './settings.js';
import { DeletedSettingsAnswer } from './schemas.js';

/** Works in any module state: resets the module and removes every poll of the guild. */
export const handler = endpoint({ body: guildBody, response: DeletedSettingsAnswer }, ({ body }) => deleteSettings(body.guild_id));

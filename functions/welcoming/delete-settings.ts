import { endpoint } from '#shared/http/endpoint.js';
import { DeleteSettingsAnswer } from './model.js';
import { GuildBody } from './schemas.js';
import { deleteSettings } from './settings.js';

/** Works in any module state: resets the module and removes its responses, timed roles and grants. */
export const handler = endpoint({ body: GuildBody, response: DeleteSettingsAnswer }, ({ body }) => deleteSettings(body.guild_id));

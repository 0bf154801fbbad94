import { endpoint } from '#shared/http/endpoint.js';
import { DeleteSettingsAnswer } from './model.js';
import { GuildBody } from './schemas.js';
import { deleteSettings } from './tags.js';

/** Works in any module state: resets the module and removes every tag and name of the guild. */
export const handler = endpoint({ body: GuildBody, response: DeleteSettingsAnswer }, ({ body }) => deleteSettings(body.guild_id));

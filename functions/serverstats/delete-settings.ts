import { endpoint } from '#shared/http/endpoint.js';
import { guildBody } from '#shared/http/schemas.js';
import { DeletedAnswer } from './schemas.js';
import { deleteSettings } from './settings.js';

/** Works in any module state: resets the module and removes all its data of the guild. */
export const handler = endpoint({ body: guildBody, response: DeletedAnswer }, ({ body }) => deleteSettings(body.guild_id));

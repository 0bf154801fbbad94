import { endpoint } from '../../shared/http/endpoint.js';
import { guildBody } from '../../shared/http/schemas.js';
import { deleteModuleData } from './cleanup.js';

export const handler = endpoint({ body: guildBody }, ({ body }) => deleteModuleData(body.guild_id));

import { endpoint } from '#shared/http/endpoint.js';
import { guildBody } from '#shared/http/schemas.js';
import { deleteModuleData } from './cleanup.js';
import { RemovedAnswer } from './schemas.js';

export const handler = endpoint({ body: guildBody, response: RemovedAnswer }, ({ body }) => deleteModuleData(body.guild_id));

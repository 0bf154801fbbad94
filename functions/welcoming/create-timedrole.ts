import { endpoint } from '../../shared/http/endpoint.js';
import { TimedRoleAnswer } from './model.js';
import { CreateTimedRoleBody } from './schemas.js';
import { createTimedRole } from './timedroles.js';

export const handler = endpoint({ body: CreateTimedRoleBody, response: TimedRoleAnswer }, ({ body: { guild_id, ...input } }) => createTimedRole(guild_id, input));

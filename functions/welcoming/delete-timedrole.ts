import { endpoint } from '#shared/http/endpoint.js';
import { TimedRoleAnswer } from './model.js';
import { GuildBody, TimedRolePath } from './schemas.js';
import { deleteTimedRole } from './timedroles.js';

/** Its pending grants are cancelled. */
export const handler = endpoint({ body: GuildBody, path: TimedRolePath, response: TimedRoleAnswer }, ({ body, path }) =>
  deleteTimedRole(body.guild_id, path.timedrole_id),
);

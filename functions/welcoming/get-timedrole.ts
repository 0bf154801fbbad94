import { endpoint } from '#shared/http/endpoint.js';
import { TimedRoleAnswer } from './model.js';
import { GuildQuery, TimedRolePath } from './schemas.js';
import { getTimedRoleRecord } from './timedroles.js';

export const handler = endpoint({ query: GuildQuery, path: TimedRolePath, response: TimedRoleAnswer }, ({ query, path }) =>
  getTimedRoleRecord(query.guild_id, path.timedrole_id),
);

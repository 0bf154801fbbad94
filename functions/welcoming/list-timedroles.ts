import { endpoint } from '#shared/http/endpoint.js';
import { TimedRolesAnswer } from './model.js';
import { GuildQuery } from './schemas.js';
import { listTimedRoleRecords } from './timedroles.js';

export const handler = endpoint({ query: GuildQuery, response: TimedRolesAnswer }, ({ query }) => listTimedRoleRecords(query.guild_id));

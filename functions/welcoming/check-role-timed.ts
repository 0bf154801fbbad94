import { endpoint } from '#shared/http/endpoint.js';
import { checkTimedRoles } from './checks.js';
import { MessageAnswer } from './model.js';
import { GuildBody } from './schemas.js';

/** Internal: grant the timed roles that are due and catch up members the join checks missed. */
export const handler = endpoint({ body: GuildBody, response: MessageAnswer }, ({ body }) => checkTimedRoles(body.guild_id));

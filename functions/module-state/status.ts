import { endpoint } from '#shared/http/endpoint.js';
import { guildQuery } from '#shared/http/schemas.js';
import { moduleStatus } from '#shared/modules/state.js';
import { StatusAnswer } from './schemas.js';

export const handler = endpoint({ query: guildQuery, response: StatusAnswer }, ({ query, module }) => moduleStatus(query.guild_id, module!));

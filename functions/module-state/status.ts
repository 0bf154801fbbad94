import { endpoint } from '../../shared/http/endpoint.js';
import { guildQuery } from '../../shared/http/schemas.js';
import { moduleStatus } from '../../shared/modules/state.js';

export const handler = endpoint({ query: guildQuery }, ({ query, module }) => moduleStatus(query.guild_id, module!));

import { endpoint } from '../../shared/http/endpoint.js';
import { guildQuery } from '../../shared/http/schemas.js';
import { getSettings } from './settings.js';

export const handler = endpoint({ query: guildQuery }, ({ query }) => getSettings(query.guild_id));

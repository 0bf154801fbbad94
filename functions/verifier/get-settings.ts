import { endpoint } from '#shared/http/endpoint.js';
import { guildQuery } from '#shared/http/schemas.js';
import { SettingsAnswer } from './schemas.js';
import { getSettings } from './settings.js';

export const handler = endpoint({ query: guildQuery, response: SettingsAnswer }, ({ query }) => getSettings(query.guild_id));

import { endpoint } from '#shared/http/endpoint.js';
import { SettingsAnswer } from './model.js';
import { GuildQuery } from './schemas.js';
import { getSettings } from './settings.js';

export const handler = endpoint({ query: GuildQuery, response: SettingsAnswer }, ({ query }) => getSettings(query.guild_id));

import { endpoint } from '#shared/http/endpoint.js';
import { guildQuery } from '#shared/http/schemas.js';
import { getSettings } from './settings.js';
import { PollSettingsAnswer } from './schemas.js';

export const handler = endpoint({ query: guildQuery, response: PollSettingsAnswer }, ({ query }) => getSettings(query.guild_id));

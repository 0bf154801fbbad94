import { endpoint } from '#shared/http/endpoint.js';
import { SettingsAnswer, SettingsBody } from './schemas.js';
import { changeSettings } from './settings.js';

/** Changes only the fields given non-null. */
export const handler = endpoint({ body: SettingsBody, response: SettingsAnswer }, ({ body: { guild_id, ...changes } }) => changeSettings(guild_id, changes));

import { endpoint } from '#shared/http/endpoint.js';
import { SettingsAnswer, SettingsBody } from './schemas.js';
import { changeSettings } from './settings.js';

export const handler = endpoint({ body: SettingsBody, response: SettingsAnswer }, ({ body: { guild_id, ...monitors } }) => changeSettings(guild_id, monitors));

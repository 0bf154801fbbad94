import { endpoint } from '../../shared/http/endpoint.js';
import { SettingsAnswer, SettingsBody } from './schemas.js';
import { changeSettings } from './settings.js';

/** Changes only the fields given non-null; `""` clears a channel. */
export const handler = endpoint({ body: SettingsBody, response: SettingsAnswer }, ({ body }) => changeSettings(body.guild_id, body));

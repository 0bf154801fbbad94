import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { SettingsAnswer, SettingsBody } from './schemas.js';
import { changeSettings } from './settings.js';

/** Changes only the fields given non-null; `""` clears a channel. */
export const handler = endpoint({ body: SettingsBody, owned: checkOwned, response: SettingsAnswer }, ({ body }) => changeSettings(body.guild_id, body));

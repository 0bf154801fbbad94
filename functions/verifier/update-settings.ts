import { endpoint } from '../../shared/http/endpoint.js';
import { SettingsAnswer, SettingsBody } from './schemas.js';
import { changeSettings } from './settings.js';

/** Changes only the fields given non-null; `""` as the channel sends prompts as DMs; type 2 needs a passphrase. */
export const handler = endpoint({ body: SettingsBody, response: SettingsAnswer }, ({ body }) => changeSettings(body.guild_id, body));

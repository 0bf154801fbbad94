import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { SettingsAnswer, SettingsBody } from './schemas.js';
import { changeSettings } from './settings.js';

/** Changes only the fields given non-null; `""` as the channel sends prompts as DMs; type 2 needs a passphrase. */
export const handler = endpoint({ body: SettingsBody, owned: checkOwned, response: SettingsAnswer }, ({ body }) => changeSettings(body.guild_id, body));

import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { SettingsAnswer } from './model.js';
import { SettingsBody } from './schemas.js';
import { changeSettings } from './settings.js';

/** Changes only the fields given non-null; "" clears a channel or response ID (contract 3.5). */
export const handler = endpoint({ body: SettingsBody, owned: checkOwned, response: SettingsAnswer }, ({ body: { guild_id, ...changes } }) =>
  changeSettings(guild_id, changes),
);

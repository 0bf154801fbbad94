import { endpoint } from '#shared/http/endpoint.js';
import { PollSettingsAnswer, SettingsBody } from './schemas.js';
import { changeSettings } from './settings.js';

export const handler = endpoint({ body: SettingsBody, response: PollSettingsAnswer }, ({ body }) =>
  changeSettings(body.guild_id, {
    save_duration_timeout: body.save_duration_timeout,
    delete_ended_platform_polls: body.delete_ended_platform_polls,
    delete_ended_service_polls: body.delete_ended_service_polls,
  }),
);

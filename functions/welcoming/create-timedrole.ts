import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { TimedRoleAnswer } from './model.js';
import { CreateTimedRoleBody } from './schemas.js';
import { createTimedRole } from './timedroles.js';

export const handler = endpoint({ body: CreateTimedRoleBody, owned: checkOwned, response: TimedRoleAnswer }, ({ body: { guild_id, ...input } }) =>
  createTimedRole(guild_id, input),
);

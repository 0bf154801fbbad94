import { endpoint } from '#shared/http/endpoint.js';
import { guildBody } from '#shared/http/schemas.js';
import { enableModule } from '#shared/modules/state.js';
import { SnapshotAnswer } from './schemas.js';

export const handler = endpoint({ body: guildBody, response: SnapshotAnswer }, ({ body, module }) => enableModule(body.guild_id, module!));

import { familyEndpoint } from '#shared/http/route-family.js';
import { diagnose } from './diagnose.js';
import * as routes from './routes.js';

/** A module's problems in a guild, read from the platform. */
export const handler = familyEndpoint(routes.diagnostics, (module) => async ({ query }) => ({ problems: await diagnose(query.guild_id, module) }));

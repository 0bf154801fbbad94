import type * as z from 'zod/mini';
import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';
import type { SnapshotAnswer } from './schemas.js';
import { enableModule } from '#shared/modules/state.js';

export const handler = endpoint(
  routes.enable,
  ({ body, module }) =>
    // A snapshot's keys are the module's record lists (its catalogue), known at run time only.
    enableModule(body.guild_id, module!) as Promise<z.input<typeof SnapshotAnswer>>,
);

import type * as z from 'zod/mini';
import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';
import type { SnapshotAnswer } from './schemas.js';
import { disableModule } from '#shared/modules/state.js';

export const handler = endpoint(
  routes.disable,
  ({ body, module }) =>
    // A snapshot's keys are the module's record lists (its catalogue), known at run time only.
    disableModule(body.guild_id, module!) as Promise<z.input<typeof SnapshotAnswer>>,
);

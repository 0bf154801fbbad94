import { notFound } from '#shared/errors.js';
import { endpoint } from '#shared/http/endpoint.js';
import { replayAllParked, replayParked } from '#shared/scheduler/replay.js';
import * as routes from './routes.js';
// Replay puts work back in its job's shard, so which jobs spread must be known: each module declares it with the job's ID.
import '#functions/jobs.js';

/** Brings parked work back to due now; the job's producer sends it on its next run. */
export const handler = endpoint(routes.replay, async ({ body }) => {
  if (body.all === true) return { replayed: await replayAllParked() };
  const replayed = await replayParked(body.id!);
  if (!replayed)
    throw notFound(`No parked work has id '${body.id}': it was never parked, has completed, or was replayed already (GET /jobs/parked lists what is parked).`);
  return { replayed: [replayed] };
});

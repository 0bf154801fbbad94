import { notFound } from '#shared/errors.js';
import { endpoint } from '#shared/http/endpoint.js';
import { replayAllParked, replayParked } from '#shared/scheduler/replay.js';
import { ReplayAnswer, ReplayBody } from './schemas.js';

/** Brings parked work back to due now; the job's producer sends it on its next run. */
export const handler = endpoint({ body: ReplayBody, response: ReplayAnswer }, async ({ body }) => {
  if (body.all === true) return { replayed: await replayAllParked() };
  const replayed = await replayParked(body.id!);
  if (!replayed)
    throw notFound(`No parked work has id '${body.id}': it was never parked, has completed, or was replayed already (GET /jobs/parked lists what is parked).`);
  return { replayed: [replayed] };
});

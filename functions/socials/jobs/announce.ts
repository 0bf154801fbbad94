import { runAnnounceUnit } from '../announce.js';
import { ANNOUNCE_JOB } from '../fan-out.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Posts one new item of a source to one part (up to 25) of the channels watching it, then asks for the next item; safe to repeat. */
export const { handler, produce } = scheduledJob(ANNOUNCE_JOB, ({ payload }) => runAnnounceUnit(payload as unknown as Parameters<typeof runAnnounceUnit>[0]));

import { FILE_JOB, fileHour } from '../filing.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/**
 * Files a guild's batched records of one closed hour by member and by
 * channel (key: `<guild>#<hour's ISO start>`); a second run of a filed hour
 * does nothing.
 */
export const { handler, produce } = scheduledJob(FILE_JOB, async ({ key }) => {
  const at = key.indexOf('#');
  await fileHour(key.slice(0, at), key.slice(at + 1));
});

import { pollStreams, STREAM_JOB } from '../socials/polling.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Polls every watched stream account once per interval, 100 accounts a request. */
export const { handler, produce } = scheduledJob(STREAM_JOB, async () => {
  const next = await pollStreams();
  return next === null ? undefined : { next };
});

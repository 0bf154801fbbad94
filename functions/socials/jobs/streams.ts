import { pollStreams, STREAM_JOB } from '../polling.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Polls one shard of the watched stream accounts (key `shard:<n>`) once per interval, 100 accounts a request, within the run's deadline. */
export const { handler, produce } = scheduledJob(STREAM_JOB, async ({ key, signal }) => {
  const shard = Number(key.slice('shard:'.length));
  if (!key.startsWith('shard:') || !Number.isInteger(shard)) return;
  const next = await pollStreams(shard, signal);
  return next === null ? undefined : { next };
});

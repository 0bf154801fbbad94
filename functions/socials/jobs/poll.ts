import { pollSource, polledSource, POLL_JOB } from '../polling.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Polls one forum, rss or video source (named by the work's payload) once per interval, backing off while it fails, within the run's deadline. */
export const { handler, produce } = scheduledJob(POLL_JOB, async ({ key, payload, signal }) => {
  const source = polledSource(payload, key);
  if (!source) return;
  const next = await pollSource(source.kind, source.ident, signal);
  return next === null ? undefined : { next };
});

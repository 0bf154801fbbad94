import { parsePollJobKey, pollSource, POLL_JOB } from '../socials/polling.js';
import { scheduledJob } from '#shared/scheduler/index.js';

/** Polls one forum, rss or video source (key `<kind>:<id>`) once per interval, backing off while it fails. */
export const { handler, produce } = scheduledJob(POLL_JOB, async ({ key }) => {
  const source = parsePollJobKey(key);
  if (!source) return;
  const next = await pollSource(source.kind, source.ident);
  return next === null ? undefined : { next };
});

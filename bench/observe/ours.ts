import { log } from '#shared/observe/log.js';

/** The service's logger and EMF writer as a request uses them: one event carrying its metrics (one line in Lambda). */
export const handler = async () => {
  log(
    'info',
    'request',
    { route: 'polls.vote', guild_id: '1', status: 200, duration_ms: 1 },
    { requests: 1, requestDuration: 1 },
    { Module: 'polls', StatusClass: '2xx' },
  );
};

import { emit } from '#shared/observe/emit.js';
import { log } from '#shared/observe/log.js';

/** The service's logger and EMF writer: one request line and one metrics line. */
export const handler = async () => {
  log('info', 'request', { route: 'polls.vote', guild_id: '1', status: 200, duration_ms: 1 });
  emit({ requests: 1, requestDuration: 1 }, { Module: 'polls', StatusClass: '2xx' });
};

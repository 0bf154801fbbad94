/** Misbehaving sources (the next N requests of one source) and the request counts. */
import type { ServerResponse } from 'node:http';
import { invalidField } from '../errors.js';
import type { Route } from '../router.js';
import { fieldsOf, json } from './http.js';
import type { SourceFault, SourceName, SourcesState } from './model.js';

const HUGE_BYTES = 6 * 1024 * 1024;

export function takeFault(state: SourcesState, source: SourceName): SourceFault | null {
  const fault = state.faults.find((f) => f.source === source && f.times > 0);
  if (!fault) return null;
  fault.times--;
  state.faults = state.faults.filter((f) => f.times > 0);
  return fault;
}

/** Misbehaves as the fault says (a timeout leaves the request hanging). */
export function misbehave(res: ServerResponse, fault: SourceFault, path: string): void {
  switch (fault.mode) {
    case 'status':
      json(res, fault.status, { error: fault.status, message: 'sandbox fault' });
      return;
    case 'timeout':
      // Never answers: the client's time limit ends it (or the sandbox closing).
      return;
    case 'garbage':
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('<<<this is not what you asked for>>>');
      return;
    case 'huge':
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(Buffer.alloc(HUGE_BYTES, 97));
      return;
    case 'redirect':
      res.writeHead(302, { Location: `${path}?redirect-loop=1` }).end();
      return;
    case 'not-modified':
      res.writeHead(304).end();
  }
}

/** Control routes: a fault, the counts, resetting them. */
export const faultControlRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/sources/faults',
    handle: ({ state, body }) => {
      const b = fieldsOf(body);
      const sources: SourceName[] = ['forum', 'stream', 'video', 'feed', 'meme'];
      const modes: SourceFault['mode'][] = ['status', 'timeout', 'garbage', 'huge', 'redirect', 'not-modified'];
      if (!sources.includes(b.source as SourceName)) throw invalidField(['source'], 'BASE_TYPE_CHOICES', `One of ${sources.join(', ')}.`);
      if (!modes.includes(b.mode as SourceFault['mode'])) throw invalidField(['mode'], 'BASE_TYPE_CHOICES', `One of ${modes.join(', ')}.`);
      state.sources.faults.push({
        source: b.source as SourceName,
        mode: b.mode as SourceFault['mode'],
        status: typeof b.status === 'number' ? b.status : 500,
        times: typeof b.times === 'number' ? b.times : 1,
      });
      return { status: 204 };
    },
  },
  { method: 'GET', pattern: '/sources/requests', handle: ({ state }) => ({ status: 200, body: state.sources.requests }) },
  { method: 'DELETE', pattern: '/sources/requests', handle: ({ state }) => ((state.sources.requests = {}), { status: 204 }) },
];

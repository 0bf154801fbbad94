import type { Route } from '#shared/http/route.js';
import { ParkedQuery, ReplayBody } from './schemas.js';

/** Parked scheduled work (behaviour §9.1): the operator's, so the service token's only. */
export const list = {
  id: 'parked.list',
  method: 'GET',
  path: '/jobs/parked',
  access: 'internal',
  summary: 'List scheduled work given up on, with its last error (latest parked first)',
  query: ParkedQuery,
} as const satisfies Route;

export const replay = {
  id: 'parked.replay',
  method: 'POST',
  path: '/jobs/parked/replay',
  access: 'internal',
  summary: 'Run parked work again: one item by its id, or all',
  body: ReplayBody,
} as const satisfies Route;

export const routes: Route[] = [list, replay];

/** The routes that take replayed work off the jobs' dead-letter queues, and so need their URLs and access to them. */
export const DEAD_LETTER_ROUTE_IDS: readonly string[] = ['parked.replay'];

import type { Route } from '#shared/http/route.js';

const file = (name: string) => `functions/parked/${name}.ts`;

/** Parked scheduled work (behaviour §9.1): the operator's, so the service token's only. */
export const routes: Route[] = [
  {
    id: 'parked.list',
    method: 'GET',
    path: '/jobs/parked',
    access: 'internal',
    file: file('list'),
    summary: 'List scheduled work given up on, with its last error (latest parked first)',
  },
  {
    id: 'parked.replay',
    method: 'POST',
    path: '/jobs/parked/replay',
    access: 'internal',
    file: file('replay'),
    summary: 'Run parked work again: one item by its id, or all',
  },
];

/** The routes that take replayed work off the jobs' dead-letter queues, and so need their URLs and access to them. */
export const DEAD_LETTER_ROUTE_IDS: readonly string[] = ['parked.replay'];

import type { Route } from '../../shared/http/route.js';
import { moduleStateRoutes } from '../module-state/routes.js';

export const routes: Route[] = [
  ...moduleStateRoutes('polls'),
  { id: 'polls.handler-home', method: 'GET', path: '/modules/polls/handler', access: 'public', file: 'functions/module-state/home.ts', summary: 'Home of the polls scheduling handler' },
];

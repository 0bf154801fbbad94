import type { Route } from '../../shared/http/route.js';
import { moduleStateRoutes } from '../module-state/routes.js';

export const routes: Route[] = [
  ...moduleStateRoutes('socials'),
  { id: 'socials.handler-home', method: 'GET', path: '/modules/socials/handler', access: 'public', file: 'functions/module-state/home.ts', summary: 'Home of the socials scheduling handler' },
];

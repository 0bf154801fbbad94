import type { Route } from '../../shared/http/route.js';
import { moduleStateRoutes } from '../module-state/routes.js';

export const routes: Route[] = [...moduleStateRoutes('invite-tracker')];

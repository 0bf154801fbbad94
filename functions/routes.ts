import type { Route } from '#shared/http/route.js';
import { routes as auth } from './auth/routes.js';
import { routes as dashboard } from './dashboard/routes.js';
import { routes as diagnostics } from './diagnostics/routes.js';
import { routes as giveaways } from './giveaways/routes.js';
import { routes as health } from './health/routes.js';
import { routes as inviteTracker } from './invite-tracker/routes.js';
import { routes as parked } from './parked/routes.js';
import { routes as polls } from './polls/routes.js';
import { routes as reactionroles } from './reactionroles/routes.js';
import { routes as serverstats } from './serverstats/routes.js';
import { routes as socials } from './socials/routes.js';
import { routes as tags } from './tags/routes.js';
import { routes as verifier } from './verifier/routes.js';
import { routes as welcoming } from './welcoming/routes.js';

/** Every route of the service, by group. Local mode, CDK, the authorizer and OpenAPI read this. */
export const routeGroups = {
  health,
  auth,
  reactionroles,
  polls,
  socials,
  serverstats,
  welcoming,
  'invite-tracker': inviteTracker,
  giveaways,
  verifier,
  tags,
  diagnostics,
  parked,
  dashboard,
} as const satisfies Record<string, Route[]>;

export type RouteGroup = keyof typeof routeGroups;

export const routes: Route[] = Object.values(routeGroups).flat();

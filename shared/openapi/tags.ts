import type { Route } from '../http/route.js';
import { moduleOfPath } from '../modules/names.js';

/** The document's groups, one per module and four for the service itself, each with what it is for. */
export const TAGS: { name: string; description: string }[] = [
  { name: 'health', description: 'Whether the service is up (`/livez`) and its table reachable (`/readyz`).' },
  { name: 'docs', description: 'This document (`/openapi.json`) and the page rendering it (`/docs`).' },
  {
    name: 'auth',
    description: 'Guild API keys: minted for one guild, for dashboards and admin scripts, managed with the service token. The secret is shown once.',
  },
  {
    name: 'reactionroles',
    description:
      'Panels of emoji reactions, buttons or a dropdown on a message; members claim the roles of an entry by reacting or clicking, and release them.',
  },
  {
    name: 'polls',
    description: 'Platform-native and service polls: posted, voted on by members, closed by their owner or at their end time, and deleted after they are kept.',
  },
  { name: 'socials', description: 'Announcements of new forum posts, streams going live, feed items and videos in the channels that watch them.' },
  { name: 'serverstats', description: 'Statistics the bot records, counters shown as channel names, and a starboard of starred messages.' },
  { name: 'welcoming', description: 'Welcome and leave messages, roles granted on join, and roles granted a while after joining.' },
  { name: 'invite-tracker', description: 'Which invite each member joined through, who invited them, and join and leave messages naming the inviter.' },
  { name: 'giveaways', description: 'Giveaways members enter with a button, drawn verifiably at their end, rerolled by their owner.' },
  { name: 'verifier', description: 'Member verification by a button, a passphrase or a web page, granting roles once verified.' },
  { name: 'tags', description: 'Named texts a guild keeps and the bot sends on request.' },
  {
    name: 'parked',
    description:
      'Scheduled work given up on after five failed deliveries, listed with its last error, and replayed once its cause is fixed. The service token only.',
  },
  {
    name: 'dashboard',
    description:
      "The dashboard for a community's admins: sign-in with the platform's OAuth2 and the pages. Its session then calls the client operations, with a guild key's reach, in the guilds the member may configure.",
  },
];

/** A route's group: its module, else the first part of its id (`health`, `docs`, `auth`). */
export const tagOf = (route: Pick<Route, 'id' | 'path'>): string => moduleOfPath(route.path) ?? route.id.split('.')[0]!;

import { type Route, route } from '#shared/http/route.js';
import * as z from 'zod/mini';
import { snowflake } from '#shared/http/schemas.js';
import { dashboardErrorPage, pageAnswer } from './answers.js';

/**
 * The dashboard (behaviour §19): sign-in with the platform's OAuth2, and the
 * pages. Every route here is public at the gateway; each reads the session
 * cookie itself (a page without a session offers to sign in). What the pages
 * change, they change through the API's client routes with the session as
 * the credential (shared/auth/credentials.ts), never through routes of
 * their own.
 */
const CallbackQuery = z.object({ code: z.optional(z.string()), state: z.optional(z.string()), error: z.optional(z.string()) });
const LogoutQuery = z.object({ csrf: z.optional(z.string()) });
const GuildPath = z.object({ guild_id: snowflake });
const AssetPath = z.object({ asset: z.enum(['dashboard.js', 'dashboard.css']) });

export const login = route({
  id: 'dashboard.login',
  method: 'GET',
  path: '/dashboard/login',
  access: 'public',
  summary: "Sign in to the dashboard: a redirect to the platform's OAuth2 authorize page",
  errorPage: dashboardErrorPage,
  response: pageAnswer('A redirect (302) to the platform; a page when the dashboard is not configured'),
});

export const callback = route({
  id: 'dashboard.callback',
  method: 'GET',
  path: '/dashboard/callback',
  access: 'public',
  summary: "The platform's OAuth2 redirect back: checks state, exchanges the code, starts a session",
  query: CallbackQuery,
  errorPage: dashboardErrorPage,
  response: pageAnswer('A redirect (302) to the guild list with the session cookie; a wrong or replayed state or code: the 400 page'),
});

export const logout = route({
  id: 'dashboard.logout',
  method: 'POST',
  path: '/dashboard/logout',
  access: 'public',
  summary: 'Sign out: ends the session (its cookie stops working at once) and revokes its platform token',
  query: LogoutQuery,
  errorPage: dashboardErrorPage,
  response: pageAnswer('A redirect (303) to the sign-in page; without the CSRF token: the 403 page'),
});

export const home = route({
  id: 'dashboard.home',
  method: 'GET',
  path: '/dashboard',
  access: 'public',
  summary: "The dashboard's guild list (the sign-in page without a session)",
  errorPage: dashboardErrorPage,
  response: pageAnswer("The member's guilds"),
});

export const guild = route({
  id: 'dashboard.guild',
  method: 'GET',
  path: '/dashboard/guilds/{guild_id}',
  access: 'public',
  summary: "One guild's modules: states, settings, lists and diagnostics",
  params: GuildPath,
  errorPage: dashboardErrorPage,
  response: pageAnswer('The guild page; 403 when the member may not configure the guild or the bot is not in it'),
});

export const asset = route({
  id: 'dashboard.asset',
  method: 'GET',
  path: '/dashboard/assets/{asset}',
  access: 'public',
  summary: "The dashboard's script and style sheet",
  params: AssetPath,
  response: { contentType: 'text/javascript or text/css', description: "The dashboard's script or style sheet" },
});

export const routes: Route[] = [login, callback, logout, home, guild, asset];

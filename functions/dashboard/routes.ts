import type { Route } from '#shared/http/route.js';
import * as z from 'zod/mini';
import { snowflake } from '#shared/http/schemas.js';
import { dashboardErrorPage } from './page-answers.js';
import { built } from '#shared/built.js';

/**
 * The dashboard (behaviour §19): sign-in with the platform's OAuth2, and the
 * pages. Every route here is public at the gateway; each reads the session
 * cookie itself (a page without a session offers to sign in). What the pages
 * change, they change through the API's client routes with the session as
 * the credential (shared/auth/credentials.ts), never through routes of
 * their own.
 */
const CallbackQuery = /* @__PURE__ */ built(() => z.object({ code: z.optional(z.string()), state: z.optional(z.string()), error: z.optional(z.string()) }));
const LogoutQuery = /* @__PURE__ */ built(() => z.object({ csrf: z.optional(z.string()) }));
const GuildPath = /* @__PURE__ */ z.object({ guild_id: snowflake });
const AssetPath = /* @__PURE__ */ built(() => z.object({ asset: z.enum(['dashboard.js', 'dashboard.css']) }));

export const login = {
  id: 'dashboard.login',
  method: 'GET',
  path: '/dashboard/login',
  access: 'public',
  summary: "Sign in to the dashboard: a redirect to the platform's OAuth2 authorize page",
  errorPage: dashboardErrorPage,
} as const satisfies Route;

export const callback = {
  id: 'dashboard.callback',
  method: 'GET',
  path: '/dashboard/callback',
  access: 'public',
  summary: "The platform's OAuth2 redirect back: checks state, exchanges the code, starts a session",
  query: CallbackQuery,
  errorPage: dashboardErrorPage,
} as const satisfies Route;

export const logout = {
  id: 'dashboard.logout',
  method: 'POST',
  path: '/dashboard/logout',
  access: 'public',
  summary: 'Sign out: ends the session (its cookie stops working at once) and revokes its platform token',
  query: LogoutQuery,
  errorPage: dashboardErrorPage,
} as const satisfies Route;

export const home = {
  id: 'dashboard.home',
  method: 'GET',
  path: '/dashboard',
  access: 'public',
  summary: "The dashboard's guild list (the sign-in page without a session)",
  errorPage: dashboardErrorPage,
} as const satisfies Route;

export const guild = {
  id: 'dashboard.guild',
  method: 'GET',
  path: '/dashboard/guilds/{guild_id}',
  access: 'public',
  summary: "One guild's modules: states, settings, lists and diagnostics",
  params: GuildPath,
  errorPage: dashboardErrorPage,
} as const satisfies Route;

export const asset = {
  id: 'dashboard.asset',
  method: 'GET',
  path: '/dashboard/assets/{asset}',
  access: 'public',
  summary: "The dashboard's script and style sheet",
  params: AssetPath,
} as const satisfies Route;

export const routes: Route[] = [login, callback, logout, home, guild, asset];

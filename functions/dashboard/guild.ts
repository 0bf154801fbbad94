import { sessionGuilds } from '#shared/auth/oauth-client.js';
import { csrfTokenOf, freshGuilds, publicBase, sessionOfCookie } from '#shared/auth/session.js';
import { forbidden } from '#shared/errors.js';
import { endpoint } from '#shared/http/endpoint.js';
import { page } from './page-answers.js';
import { basePath, guildPage, signInPage } from './pages.js';
import * as routes from './routes.js';

/**
 * Public: one guild's page, for a member who may configure it (Manage
 * Server or Administrator, as the platform said at most 5 minutes ago) where
 * the bot is; else the 403 page. The page's script reads and changes
 * everything through the API with the session, which checks the same again.
 */
export const handler = endpoint(routes.guild, async ({ path, header }) => {
  const base = basePath(publicBase());
  const found = await sessionOfCookie(header('cookie'));
  if (!found) return page(signInPage(base), 401);
  const guild = (await freshGuilds(found.sessionId, found.session, sessionGuilds)).find((g) => g.id === path.guild_id);
  if (!guild?.manage) throw forbidden(`You may not configure guild ${path.guild_id}: you need Manage Server or Administrator there.`);
  if (!guild.bot) throw forbidden(`The bot is not in ${guild.name}; invite it before configuring the guild.`);
  return page(guildPage(base, guild, await csrfTokenOf(found.sessionId)));
});

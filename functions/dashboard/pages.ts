/**
 * The dashboard's pages: server-rendered HTML, no framework, nothing fetched
 * from elsewhere. The guild page is a shell the script (assets.ts) fills
 * from the API and the OpenAPI document; the other pages need no script.
 */
import { escapeUTF8 } from 'entities/escape';
import { MODULES } from '#shared/modules/names.js';
import type { SessionGuild } from '#shared/auth/session.js';

/** Text as HTML text or a quoted attribute's value: `&`, `<`, `>`, `"` and `'` escaped. */
export const escapeHtml = escapeUTF8;

/** The path the service is served under (`/v1` behind API Gateway's stage, nothing in local mode). */
export const basePath = (publicBase: string) => new URL(publicBase).pathname.replace(/\/+$/, '');

interface Layout {
  title: string;
  base: string;
  body: string;
  meta?: Record<string, string>;
  script?: boolean;
}

function layout({ title, base, body, meta = {}, script = false }: Layout): string {
  const metas = Object.entries(meta)
    .map(([name, content]) => `<meta name="${escapeHtml(name)}" content="${escapeHtml(content)}">`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${metas}
<title>${escapeHtml(title)} · Guild modules</title>
<link rel="stylesheet" href="${base}/dashboard/assets/dashboard.css">
${script ? `<script defer src="${base}/dashboard/assets/dashboard.js"></script>` : ''}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><a href="${base}/dashboard">Guild modules</a></header>
<main id="main">
${body}
</main>
</body>
</html>`;
}

/** A page saying what happened and what to do. */
export function messagePage(title: string, message: string, base = ''): string {
  return layout({
    title,
    base,
    body: `<h1>${escapeHtml(title)}</h1>\n<p role="alert">${escapeHtml(message)}</p>\n<p><a href="${base}/dashboard">Back to the dashboard</a></p>`,
  });
}

export function signInPage(base: string): string {
  return layout({
    title: 'Sign in',
    base,
    body: `<h1>Configure your community</h1>
<p>Sign in with the platform to configure the modules of the guilds you manage.</p>
<p><a class="button" href="${base}/dashboard/login">Sign in with the platform</a></p>`,
  });
}

function logoutForm(base: string, csrf: string): string {
  return `<form method="post" action="${base}/dashboard/logout?csrf=${encodeURIComponent(csrf)}"><button type="submit">Sign out</button></form>`;
}

export function guildsPage(base: string, username: string, guilds: readonly SessionGuild[], csrf: string): string {
  const usable = guilds.filter((g) => g.manage && g.bot);
  const noBot = guilds.filter((g) => g.manage && !g.bot);
  const items = usable.map((g) => `<li><a href="${base}/dashboard/guilds/${g.id}">${escapeHtml(g.name)}</a></li>`).join('\n');
  const absent = noBot.map((g) => `<li>${escapeHtml(g.name)}</li>`).join('\n');
  return layout({
    title: 'Your guilds',
    base,
    body: `<h1>Your guilds</h1>
<p>Signed in as ${escapeHtml(username)}.</p>
${logoutForm(base, csrf)}
${usable.length ? `<ul class="guilds">\n${items}\n</ul>` : '<p>You manage no guild the bot is in.</p>'}
${noBot.length ? `<h2>Guilds without the bot</h2>\n<p>You manage these, but the bot is not in them: invite it first.</p>\n<ul>\n${absent}\n</ul>` : ''}`,
  });
}

const MODULE_TITLES: Record<(typeof MODULES)[number], string> = {
  reactionroles: 'Reaction roles',
  polls: 'Polls',
  socials: 'Social feeds',
  serverstats: 'Server statistics',
  welcoming: 'Welcoming',
  'invite-tracker': 'Invite tracker',
  giveaways: 'Giveaways',
  verifier: 'Verification',
  tags: 'Tags',
};

export function guildPage(base: string, guild: SessionGuild, csrf: string): string {
  const sections = MODULES.map(
    (m) => `<section class="module" id="module-${m}" data-module="${m}" aria-labelledby="title-${m}">
<h2 id="title-${m}">${MODULE_TITLES[m]}</h2>
<p class="loading" role="status">Loading…</p>
</section>`,
  ).join('\n');
  const nav = MODULES.map((m) => `<li><a href="#module-${m}">${MODULE_TITLES[m]}</a></li>`).join('');
  return layout({
    title: guild.name,
    base,
    script: true,
    meta: { 'gmms-base': base, 'gmms-guild': guild.id, 'gmms-csrf': csrf },
    body: `<h1>${escapeHtml(guild.name)}</h1>
${logoutForm(base, csrf)}
<nav aria-label="Modules"><ul class="modules">${nav}</ul></nav>
<noscript><p>This page needs JavaScript to load the modules' settings.</p></noscript>
${sections}`,
  });
}

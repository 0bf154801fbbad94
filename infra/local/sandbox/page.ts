/** A plain HTML page of what the bot did on the sandbox, for a person to look at. */
import type { Message } from '../../../shared/platform/types.js';
import type { SandboxSnapshot } from './snapshot.js';

const escape = (text: unknown) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function emojiText(emoji: { id?: string | null; name?: string | null } | undefined): string {
  if (!emoji) return '';
  return emoji.id ? `:${emoji.name}:` : (emoji.name ?? '');
}

function messageHtml(m: Message): string {
  const parts = [`<b>${escape(m.author.username)}</b> <small>${escape(m.timestamp)}${m.edited_timestamp ? ' (edited)' : ''} #${escape(m.id)}</small>`];
  if (m.content) parts.push(`<pre>${escape(m.content)}</pre>`);
  for (const e of m.embeds) parts.push(`<blockquote><b>${escape(e.title ?? '')}</b><pre>${escape(e.description ?? '')}</pre></blockquote>`);
  for (const row of m.components ?? []) {
    const items = row.components.map((c) =>
      c.type === 2 ? `[${escape(emojiText(c.emoji))} ${escape(c.label ?? '')}]` : `[▾ ${c.options.map((o) => escape(o.label)).join(' | ')}]`,
    );
    parts.push(`<div>${items.join(' ')}</div>`);
  }
  if (m.poll) {
    const counts = new Map((m.poll.results?.answer_counts ?? []).map((c) => [c.id, c.count]));
    const answers = m.poll.answers.map((a) => `<li>${escape(a.poll_media.text ?? '')}: ${counts.get(a.answer_id) ?? 0}</li>`).join('');
    parts.push(`<div>Poll: ${escape(m.poll.question.text ?? '')}${m.poll.results?.is_finalized ? ' (final)' : ''}<ul>${answers}</ul></div>`);
  }
  if (m.reactions) parts.push(`<div>${m.reactions.map((r) => `${escape(emojiText(r.emoji))} ${r.count}${r.me ? '*' : ''}`).join(' · ')}</div>`);
  return `<li>${parts.join('')}</li>`;
}

/** The page: channels with their messages, then member roles and invites. Refreshes itself. */
export function renderPage(state: SandboxSnapshot, apiUrl: string): string {
  const channels = state.channels
    .map((c) => `<h2>${c.recipients ? `DM with ${escape(c.recipients[0]?.id)}` : `#${escape(c.name ?? c.id)}`} <small>${escape(c.id)}${c.guild_id ? ` in guild ${escape(c.guild_id)}` : ''}</small></h2><ul>${c.messages.map(messageHtml).join('')}</ul>`)
    .join('');
  const roles = Object.entries(state.members)
    .flatMap(([guild, users]) => Object.entries(users).map(([user, held]) => `<li>guild ${escape(guild)} member ${escape(user)}: ${held.map(escape).join(', ') || 'no roles'}</li>`))
    .join('');
  const invites = state.invites.map((i) => `<li>${escape(i.code)} in ${escape(i.channel?.id)}: ${i.uses}/${i.max_uses || '∞'} uses</li>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Sandbox platform</title>
<style>body{font-family:sans-serif;max-width:60rem;margin:auto}pre{white-space:pre-wrap;margin:.2rem 0}li{margin:.5rem 0}</style></head>
<body><h1>Sandbox platform</h1><p>API: <code>${escape(apiUrl)}</code> · <a href="/_sandbox/state">state as JSON</a> · <a href="/_sandbox/requests">request log</a></p>
${channels || '<p>No channels yet.</p>'}<h2>Member roles</h2><ul>${roles}</ul><h2>Invites</h2><ul>${invites}</ul></body></html>`;
}

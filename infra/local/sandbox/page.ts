/**
 * The sandbox platform's page: what the bot did, shown as a chat client
 * shows it. Guilds, channels and DMs on the side; a channel's messages
 * oldest first with the newest at the bottom, rendered markdown, mentions as
 * names, local times, embeds as cards, buttons and selects as controls,
 * reactions with counts and polls with their results; interaction answers
 * and callbacks as the member saw them; what the socials sources publish. It reads `/_sandbox/state` every two
 * seconds, so it follows live. Everything is inline: no outside asset.
 */
import type { SandboxSnapshot } from './snapshot.js';

const style = `
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;background:#313338;color:#dbdee1}
a{color:#00a8fc}code{background:#2b2d31;border-radius:4px;padding:0 4px;font-size:90%}pre{background:#2b2d31;border-radius:6px;padding:8px;white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0}
.app{display:flex;min-height:100vh}nav{width:260px;flex:none;background:#2b2d31;padding:12px;overflow-y:auto}
nav h1{font-size:16px;margin:0 0 4px;color:#fff}nav p{margin:0 0 12px;font-size:12px;color:#949ba4}nav h2{font-size:12px;text-transform:uppercase;color:#949ba4;margin:14px 0 4px}
nav button{display:block;width:100%;text-align:left;background:none;border:0;color:#949ba4;padding:5px 8px;border-radius:4px;font:inherit;cursor:pointer;overflow-wrap:anywhere}
nav button.on,nav button:hover{background:#404249;color:#fff}main{flex:1;min-width:0;display:flex;flex-direction:column}
header{padding:12px 16px;border-bottom:1px solid #1f2023;font-weight:600;color:#fff}#messages{flex:1;padding:8px 16px 24px;overflow-wrap:anywhere}
.msg{display:flex;gap:12px;padding:6px 0}.av{width:38px;height:38px;border-radius:50%;flex:none;display:grid;place-items:center;color:#fff;font-weight:700}
.who{font-weight:600;color:#fff}.bot{font-size:10px;background:#5865f2;color:#fff;border-radius:3px;padding:1px 4px;margin-left:4px;vertical-align:middle}
time{font-size:12px;color:#949ba4;margin-left:6px}.body{min-width:0;flex:1}.sub{font-size:12px;color:#949ba4}.mention{background:#3c4270;color:#c9cdfb;border-radius:3px;padding:0 2px}
.embed{border-left:4px solid #5865f2;background:#2b2d31;border-radius:4px;padding:8px 12px;margin:4px 0;max-width:520px}.embed .t{font-weight:600;color:#fff}.embed img{max-width:100%;border-radius:4px}
.fields{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:6px;margin-top:6px}.field b{display:block;font-size:13px;color:#fff}
.row{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0}.btn{border:0;border-radius:4px;padding:5px 14px;color:#fff;font:inherit;font-size:14px}
.s1{background:#5865f2}.s2{background:#4e5058}.s3{background:#248046}.s4{background:#da373c}.s5{background:#4e5058;text-decoration:none}
select{background:#1e1f22;color:#dbdee1;border:0;border-radius:4px;padding:6px;max-width:100%}.reacts{display:flex;flex-wrap:wrap;gap:4px;margin-top:4px}
.react{background:#2b2d31;border:1px solid #3f4147;border-radius:8px;padding:0 6px;font-size:13px}.react.me{border-color:#5865f2;background:#3c4270}
.poll{background:#2b2d31;border-radius:8px;padding:8px 12px;max-width:420px}.poll li{list-style:none}.bar{height:6px;background:#5865f2;border-radius:3px}
.note{font-size:12px;color:#949ba4;border-left:2px solid #5865f2;padding-left:8px;margin:6px 0}
@media (max-width:700px){.app{flex-direction:column}nav{width:auto;max-height:40vh}}`;

const script = `
const esc = (t) => String(t ?? '').replace(/[&<>"']/g, (c) => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]));
let state = null, chosen = null;
const userName = (id) => { const u = state.users[id]; const self = state.bot_user.id === id ? state.bot_user : null; return (self && (self.global_name || self.username)) || (u && (u.global_name || u.username)) || 'member-' + String(id).slice(-4); };
const channelName = (id) => { const c = state.channels.find((x) => x.id === id); return c ? (c.name || id) : id; };
const roleName = (id) => { for (const g of state.guilds) if (g.roles && g.roles[id]) return g.roles[id]; return 'role-' + String(id).slice(-4); };
const when = (unix, style) => { const d = new Date(Number(unix) * 1000); if (style === 'R') { const s = Math.round((d - Date.now()) / 1000); const a = Math.abs(s), u = a < 60 ? [a, 'seconds'] : a < 3600 ? [Math.round(a / 60), 'minutes'] : a < 86400 ? [Math.round(a / 3600), 'hours'] : [Math.round(a / 86400), 'days']; return s >= 0 ? 'in ' + u[0] + ' ' + u[1] : u[0] + ' ' + u[1] + ' ago'; } return d.toLocaleString(); };
function inline(t) {
  return t.replace(/\`([^\`]+)\`/g, (m, c) => '<code>' + c + '</code>')
    .replace(/\\*\\*([^*]+)\\*\\*/g, '<b>$1</b>').replace(/__([^_]+)__/g, '<u>$1</u>').replace(/\\*([^*]+)\\*/g, '<i>$1</i>').replace(/(^|\\s)_([^_]+)_(?=\\s|$)/g, '$1<i>$2</i>').replace(/~~([^~]+)~~/g, '<s>$1</s>')
    .replace(/\\[([^\\]]+)\\]\\((https?:[^)\\s]+)\\)/g, (m, label, url) => '<a href="' + url + '" target="_blank" rel="noopener">' + label + '</a>')
    .replace(/(^|[\\s(])(https?:\\/\\/[^\\s<)]+)/g, (m, pre, url) => pre + '<a href="' + url + '" target="_blank" rel="noopener">' + url + '</a>')
    .replace(/&lt;@!?(\\d+)&gt;/g, (m, id) => '<span class="mention">@' + esc(userName(id)) + '</span>')
    .replace(/&lt;@&amp;(\\d+)&gt;/g, (m, id) => '<span class="mention">@' + esc(roleName(id)) + '</span>')
    .replace(/&lt;#(\\d+)&gt;/g, (m, id) => '<span class="mention">#' + esc(channelName(id)) + '</span>')
    .replace(/&lt;t:(\\d+)(?::([tTdDfFR]))?&gt;/g, (m, unix, style) => '<span class="mention">' + esc(when(unix, style)) + '</span>')
    .replace(/@(everyone|here)/g, '<span class="mention">@$1</span>');
}
function markdown(text) {
  const blocks = esc(text).split(/\`\`\`/);
  return blocks.map((b, i) => i % 2 ? '<pre>' + b.replace(/^[a-z]*\\n/, '') + '</pre>' : b.split('\\n').map((line) => {
    const h = /^(#{1,3}) (.*)$/.exec(line); if (h) return '<div style="font-weight:700;font-size:' + (22 - h[1].length * 2) + 'px">' + inline(h[2]) + '</div>';
    if (line.startsWith('-# ')) return '<div class="sub">' + inline(line.slice(3)) + '</div>';
    if (/^&gt; /.test(line)) return '<div class="note">' + inline(line.slice(5)) + '</div>';
    if (/^[-*] /.test(line)) return '<div>• ' + inline(line.slice(2)) + '</div>';
    return line ? '<div>' + inline(line) + '</div>' : '<div>&nbsp;</div>';
  }).join('')).join('');
}
const emoji = (e) => !e ? '' : e.id ? ':' + esc(e.name) + ':' : esc(e.name);
const color = (id) => 'hsl(' + (Number(BigInt(id) % 360n)) + ',45%,40%)';
function embedHtml(e) {
  const fields = (e.fields || []).map((f) => '<div class="field"><b>' + markdown(f.name) + '</b>' + markdown(f.value) + '</div>').join('');
  return '<div class="embed"' + (e.color ? ' style="border-color:#' + Number(e.color).toString(16).padStart(6, '0') + '"' : '') + '>'
    + (e.author ? '<div class="sub">' + esc(e.author.name) + '</div>' : '')
    + (e.title ? '<div class="t">' + (e.url ? '<a href="' + esc(e.url) + '" target="_blank" rel="noopener">' + esc(e.title) + '</a>' : esc(e.title)) + '</div>' : '')
    + (e.description ? markdown(e.description) : '') + (fields ? '<div class="fields">' + fields + '</div>' : '')
    + (e.image ? '<img alt="" src="' + esc(e.image.url) + '" loading="lazy">' : '')
    + (e.footer ? '<div class="sub">' + esc(e.footer.text) + '</div>' : '') + (e.timestamp ? '<div class="sub">' + esc(new Date(e.timestamp).toLocaleString()) + '</div>' : '') + '</div>';
}
function componentsHtml(rows) {
  return (rows || []).map((row) => '<div class="row">' + row.components.map((c) => {
    if (c.type === 2 && c.style === 5) return '<a class="btn s5" href="' + esc(c.url) + '" target="_blank" rel="noopener">' + emoji(c.emoji) + ' ' + esc(c.label) + ' ↗</a>';
    if (c.type === 2) return '<button class="btn s' + c.style + '" disabled title="' + esc(c.custom_id) + '">' + emoji(c.emoji) + ' ' + esc(c.label || '') + '</button>';
    return '<select disabled aria-label="' + esc(c.placeholder || 'Choose') + '"><option>' + esc(c.placeholder || 'Make a selection') + '</option>' + c.options.map((o) => '<option>' + esc(o.label) + '</option>').join('') + '</select>';
  }).join('') + '</div>').join('');
}
function pollHtml(p) {
  const counts = new Map(((p.results && p.results.answer_counts) || []).map((c) => [c.id, c.count]));
  const total = [...counts.values()].reduce((a, b) => a + b, 0) || 1;
  return '<div class="poll"><b>' + esc(p.question.text) + '</b>' + (p.results && p.results.is_finalized ? ' <span class="sub">final results</span>' : '') + '<ul style="padding:0">' + p.answers.map((a) => { const n = counts.get(a.answer_id) || 0; return '<li>' + emoji(a.poll_media.emoji) + ' ' + esc(a.poll_media.text) + ' <span class="sub">' + n + '</span><div class="bar" style="width:' + Math.round(n / total * 100) + '%"></div></li>'; }).join('') + '</ul></div>';
}
function messageHtml(m) {
  return '<div class="msg"><div class="av" style="background:' + color(m.author.id) + '">' + esc(userName(m.author.id).slice(0, 1).toUpperCase()) + '</div><div class="body"><span class="who">' + esc(userName(m.author.id)) + '</span>'
    + (m.author.bot ? '<span class="bot">BOT</span>' : '') + '<time datetime="' + esc(m.timestamp) + '">' + esc(new Date(m.timestamp).toLocaleString()) + (m.edited_timestamp ? ' (edited)' : '') + '</time>'
    + (m.message_reference ? '<div class="sub">↪ replying to a message</div>' : '') + (m.content ? markdown(m.content) : '') + (m.embeds || []).map(embedHtml).join('') + (m.poll ? pollHtml(m.poll) : '') + componentsHtml(m.components)
    + ((m.reactions || []).length ? '<div class="reacts">' + m.reactions.map((r) => '<span class="react' + (r.me ? ' me' : '') + '">' + emoji(r.emoji) + ' ' + r.count + '</span>').join('') + '</div>' : '') + '</div></div>';
}
function sidebar() {
  const groups = new Map();
  for (const c of state.channels) { const key = c.recipients ? 'Direct messages' : c.guild_id ? ((state.guilds.find((g) => g.id === c.guild_id) || {}).name || 'Guild ' + c.guild_id) : 'Channels'; if (!groups.has(key)) groups.set(key, []); groups.get(key).push(c); }
  let html = '';
  for (const [name, list] of groups) html += '<h2>' + esc(name) + '</h2>' + list.map((c) => '<button data-id="' + esc(c.id) + '" class="' + (c.id === chosen ? 'on' : '') + '">' + (c.recipients ? '@' + esc(userName(c.recipients[0].id)) : '# ' + esc(c.name || c.id)) + ' <span class="sub">' + c.messages.length + '</span></button>').join('');
  const answers = Object.values(state.webhooks).reduce((n, l) => n + l.length, 0) + state.interactions.length;
  const src = state.sources, items = src.forums.reduce((n, f) => n + f.posts.length, 0) + src.videos.reduce((n, c) => n + c.videos.length, 0) + src.feeds.reduce((n, f) => n + f.entries.length, 0) + src.streams.filter((a) => a.live).length;
  html += '<h2>Socials sources</h2><button data-id="@sources" class="' + (chosen === '@sources' ? 'on' : '') + '">What the sources publish <span class="sub">' + items + '</span></button>';
  html += '<h2>Members answered</h2><button data-id="@answers" class="' + (chosen === '@answers' ? 'on' : '') + '">Interaction answers <span class="sub">' + answers + '</span></button>';
  return html;
}
function answersHtml() {
  const webhooks = Object.entries(state.webhooks).flatMap(([key, list]) => list.map((m) => '<div class="note">to interaction ' + esc(key.split('/')[1].slice(0, 8)) + '…' + ((m.flags & 64) ? ' (only the member sees it)' : '') + '</div>' + messageHtml(m)));
  const callbacks = state.interactions.map((c) => '<div class="note">' + (c.type === 9 ? 'modal "' + esc(c.data.title) + '" (' + esc(c.data.custom_id) + ')' : 'callback type ' + c.type + ((c.data.flags & 64) ? ' (only the member sees it)' : '')) + ' · ' + esc(new Date(c.time).toLocaleString()) + '</div>' + (c.data.content ? markdown(c.data.content) : ''));
  return [...webhooks, ...callbacks].join('') || '<p class="sub">No interaction answered yet.</p>';
}
function sourcesHtml() {
  const src = state.sources;
  const item = (i) => '<li>' + (i.url ? '<a href="' + esc(i.url) + '" target="_blank" rel="noopener">' + esc(i.title) + '</a>' : esc(i.title)) + (i.time ? ' <time datetime="' + esc(i.time) + '">' + esc(new Date(i.time).toLocaleString()) + '</time>' : '') + '</li>';
  const list = (title, items) => '<div class="embed"><div class="t">' + title + '</div>' + (items.length ? '<ul>' + items.map(item).join('') + '</ul>' : '<p class="sub">Nothing yet.</p>') + '</div>';
  const parts = [
    ...src.forums.map((f) => list('Forum r/' + esc(f.name), f.posts)),
    ...src.streams.map((a) => list('Stream ' + esc(a.login) + (a.live ? ' · live' : ' · offline'), a.live ? [{ title: a.live.title, time: a.live.started_at }] : [])),
    ...src.videos.map((c) => list('Videos ' + esc(c.handle), c.videos)),
    ...src.feeds.map((f) => list(esc(f.format.toUpperCase()) + ' feed ' + esc(f.name) + ' · ' + esc(f.title), f.entries)),
  ];
  if (src.memes.length) parts.push(list('Memes queued', src.memes));
  if (src.faults.length) parts.push('<div class="note">Misbehaving: ' + src.faults.map((f) => esc(f.source) + ' ' + esc(f.mode) + ' ×' + f.times).join(', ') + '</div>');
  const counts = Object.entries(src.requests).map(([k, n]) => esc(k) + ' ' + n).join(' · ');
  return (parts.join('') || '<p class="sub">No source yet: create one under /_sandbox/sources.</p>') + (counts ? '<p class="sub">Requests received: ' + counts + '</p>' : '');
}
function render() {
  if (!chosen && state.channels.length) chosen = state.channels[state.channels.length - 1].id;
  document.getElementById('side').innerHTML = sidebar();
  const channel = state.channels.find((c) => c.id === chosen);
  document.getElementById('title').textContent = chosen === '@answers' ? 'Interaction answers' : chosen === '@sources' ? 'Socials sources' : channel ? (channel.recipients ? '@' + userName(channel.recipients[0].id) : '# ' + (channel.name || channel.id)) : 'Nothing posted yet';
  const box = document.getElementById('messages');
  const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
  box.innerHTML = chosen === '@answers' ? answersHtml() : chosen === '@sources' ? sourcesHtml() : channel ? channel.messages.map(messageHtml).join('') || '<p class="sub">No messages.</p>' : '<p class="sub">When the bot posts, channels appear on the side.</p>';
  if (atBottom) window.scrollTo(0, document.body.scrollHeight);
}
document.addEventListener('click', (event) => { const b = event.target.closest('nav button'); if (b) { chosen = b.dataset.id; render(); window.scrollTo(0, document.body.scrollHeight); } });
async function refresh() { try { state = await (await fetch('/_sandbox/state')).json(); render(); } catch (e) {} setTimeout(refresh, 2000); }
refresh();`;

/** The page; it renders the state it fetches, and the first state inline so it shows at once. */
export function renderPage(state: SandboxSnapshot, apiUrl: string): string {
  const initial = JSON.stringify(state).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox platform</title>
<style>${style}</style>
</head>
<body>
<div class="app">
<nav><h1>Sandbox platform</h1><p>API <code>${apiUrl.replace(/[<&>"]/g, '')}</code> · <a href="/_sandbox/state">state</a> · <a href="/_sandbox/requests">requests</a></p><div id="side"></div></nav>
<main><header id="title">Loading…</header><div id="messages"><noscript>This page needs JavaScript; the state is at <a href="/_sandbox/state">/_sandbox/state</a>.</noscript></div></main>
</div>
<script>window.__initial = ${initial};</script>
<script>${script}
state = window.__initial; render();</script>
</body>
</html>`;
}

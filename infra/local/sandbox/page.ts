/**
 * The sandbox platform's page: what the bot did, shown as a chat client
 * shows it. Guilds, channels and DMs on the side; a channel's messages
 * oldest first with the newest at the bottom, rendered markdown, mentions as
 * names, local times, embeds as cards, buttons and selects as controls,
 * reactions with counts and polls with their results; interaction answers
 * and callbacks as the member saw them; what the socials sources publish; the guild's members with their roles on the
 * right. It follows live: `/_sandbox/events` (changes.ts) sends a notice per
 * change, the page reads `/_sandbox/state` once and rebuilds only the parts
 * whose HTML changed, never the one being pressed, typed in or chosen in.
 * The bot's answer to the person's last click shows in a status line that
 * stays in view. Everything is inline: no outside asset.
 *
 * A person acts on it as a member they choose (by ID), through the control
 * routes: post, click buttons and pick in selects (a modal the bot answers
 * with opens as a form), vote in polls, react, join and leave the guild (also
 * through an invite or the vanity URL), join voice, set a presence, run the
 * guild's application commands from the `/` box (its list shows each
 * command's options; an autocompleted option suggests the bot's choices as
 * the person types); each member's own (ephemeral) answers are listed
 * under "Members answered". Text
 * from members is escaped everywhere: it is data, never markup.
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
.react,.react-add{background:#2b2d31;border:1px solid #3f4147;border-radius:8px;padding:0 6px;font-size:13px}.react.me{border-color:#5865f2;background:#3c4270}
.poll{background:#2b2d31;border-radius:8px;padding:8px 12px;max-width:420px}.poll li{list-style:none}.bar{height:6px;background:#5865f2;border-radius:3px}
.note{font-size:12px;color:#949ba4;border-left:2px solid #5865f2;padding-left:8px;margin:6px 0}
.bar-tools{display:flex;flex-wrap:wrap;gap:6px;align-items:center;padding:8px 16px;border-bottom:1px solid #1f2023;font-size:13px}
.bar-tools input,.bar-tools select,#composer input,dialog input{background:#1e1f22;color:#dbdee1;border:1px solid #3f4147;border-radius:4px;padding:4px 6px;font:inherit}
.tool{background:#4e5058;color:#fff;border:0;border-radius:4px;padding:4px 10px;font:inherit;font-size:13px;cursor:pointer}
#foot{position:sticky;bottom:0;background:#313338;border-top:1px solid #1f2023}#composer{display:flex;gap:6px;padding:8px 16px}#composer input{flex:1}
#status{color:#f0b232;padding:6px 16px 0;max-height:4.5em;overflow-y:auto;overflow-wrap:anywhere}#status:empty{display:none}
aside{width:240px;flex:none;background:#2b2d31;padding:12px;position:sticky;top:0;align-self:flex-start;max-height:100vh;overflow-y:auto}aside h1{font-size:16px;margin:0;color:#fff}
aside h2{font-size:12px;text-transform:uppercase;color:#949ba4;margin:14px 0 4px;overflow-wrap:anywhere}.member{padding:4px;border-radius:4px;overflow-wrap:anywhere}.member.me{background:#404249}
.roles{display:flex;flex-wrap:wrap;gap:3px;margin-top:2px}.role{font-size:12px;background:#3c4270;color:#c9cdfb;border-radius:3px;padding:0 4px}
:focus-visible{outline:2px solid #00a8fc;outline-offset:1px}.react,.react-add,.poll li[data-act],.btn:not([disabled]){cursor:pointer}.take{cursor:pointer;color:#949ba4;margin-left:2px}
dialog{background:#313338;color:#dbdee1;border:1px solid #1f2023;border-radius:8px;min-width:320px}dialog label{display:block;margin:8px 0 2px}
#slash{padding:6px 16px 0}#cmd{width:100%;background:#1e1f22;color:#dbdee1;border:1px solid #3f4147;border-radius:4px;padding:4px 6px;font:inherit}
#cmd-list:empty,#cmd-form:empty{display:none}#cmd-list,#cmd-form{background:#2b2d31;border-radius:6px;padding:6px;margin-top:4px;max-height:40vh;overflow-y:auto}
.cmd{display:block;width:100%;text-align:left;background:none;border:0;color:#dbdee1;padding:4px 6px;border-radius:4px;font:inherit;cursor:pointer}.cmd:hover,.cmd:focus{background:#404249}
#cmd-form label{display:block;margin:4px 0}#cmd-form input,#cmd-form select{background:#1e1f22;color:#dbdee1;border:1px solid #3f4147;border-radius:4px;padding:3px 6px;font:inherit}
@media (max-width:900px){.app{flex-direction:column}nav{width:auto;max-height:40vh}aside{width:auto;position:static;max-height:none;align-self:auto}}`;

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
    if (c.type === 2) return '<button class="btn s' + c.style + '" data-act="click" data-custom="' + esc(c.custom_id) + '"' + (c.disabled ? ' disabled' : '') + ' title="' + esc(c.custom_id) + '">' + emoji(c.emoji) + ' ' + esc(c.label || '') + '</button>';
    const many = (c.max_values || 1) > 1;
    return '<select data-act="pick" data-custom="' + esc(c.custom_id) + '"' + (many ? ' multiple' : '') + (c.disabled ? ' disabled' : '') + ' aria-label="' + esc(c.placeholder || 'Choose') + '">' + (many ? '' : '<option value="">' + esc(c.placeholder || 'Make a selection') + '</option>') + (c.options || []).map((o) => '<option value="' + esc(o.value) + '">' + esc(o.label) + '</option>').join('') + '</select>'
      + (many ? '<button class="tool" data-act="pick-send" data-custom="' + esc(c.custom_id) + '">Pick</button>' : '');
  }).join('') + '</div>').join('');
}
function pollHtml(p) {
  const counts = new Map(((p.results && p.results.answer_counts) || []).map((c) => [c.id, c.count]));
  const total = [...counts.values()].reduce((a, b) => a + b, 0) || 1;
  return '<div class="poll"><b>' + esc(p.question.text) + '</b>' + (p.results && p.results.is_finalized ? ' <span class="sub">final results</span>' : '') + '<ul style="padding:0">' + p.answers.map((a) => { const n = counts.get(a.answer_id) || 0; return '<li data-act="vote" data-answer="' + a.answer_id + '" title="vote" tabindex="0" role="button">' + emoji(a.poll_media.emoji) + ' ' + esc(a.poll_media.text) + ' <span class="sub">' + n + '</span><div class="bar" style="width:' + Math.round(n / total * 100) + '%"></div></li>'; }).join('') + '</ul></div>';
}
function messageHtml(m) {
  return '<div class="msg" data-m="' + esc(m.id) + '" data-c="' + esc(m.channel_id) + '"><div class="av" style="background:' + color(m.author.id) + '">' + esc(userName(m.author.id).slice(0, 1).toUpperCase()) + '</div><div class="body"><span class="who">' + esc(userName(m.author.id)) + '</span>'
    + (m.author.bot ? '<span class="bot">BOT</span>' : '') + '<time datetime="' + esc(m.timestamp) + '">' + esc(new Date(m.timestamp).toLocaleString()) + (m.edited_timestamp ? ' (edited)' : '') + '</time>'
    + (m.message_reference ? '<div class="sub">↪ replying to a message</div>' : '') + (m.content ? markdown(m.content) : '') + (m.embeds || []).map(embedHtml).join('') + (m.poll ? pollHtml(m.poll) : '') + componentsHtml(m.components)
    + '<div class="reacts">' + (m.reactions || []).map((r) => { const key = esc(r.emoji.id ? r.emoji.name + ':' + r.emoji.id : r.emoji.name); return '<span class="react' + (r.me ? ' me' : '') + '" data-act="react" data-emoji="' + key + '" title="react as the member" tabindex="0" role="button">' + emoji(r.emoji) + ' ' + r.count + '<span class="take" data-act="unreact" data-emoji="' + key + '" title="take the reaction back" tabindex="0" role="button" aria-label="take the reaction back">×</span></span>'; }).join('')
    + '<span class="react-add" data-act="react-new" title="add a reaction" tabindex="0" role="button" aria-label="add a reaction">+</span></div></div></div>';
}
function sidebarParts() {
  const groups = new Map();
  for (const c of state.channels) { const key = c.recipients ? 'Direct messages' : c.guild_id ? ((state.guilds.find((g) => g.id === c.guild_id) || {}).name || 'Guild ' + c.guild_id) : 'Channels'; if (!groups.has(key)) groups.set(key, []); groups.get(key).push(c); }
  const parts = [];
  for (const [name, list] of groups) { parts.push(['h:' + name, '<h2>' + esc(name) + '</h2>']); for (const c of list) parts.push(['c:' + c.id, '<button data-id="' + esc(c.id) + '" class="' + (c.id === chosen ? 'on' : '') + '">' + (c.recipients ? '@' + esc(userName(c.recipients[0].id)) : '# ' + esc(c.name || c.id)) + ' <span class="sub">' + c.messages.length + '</span></button>']); }
  const answers = Object.values(state.webhooks).reduce((n, l) => n + l.length, 0) + state.interactions.length;
  const src = state.sources, items = src.forums.reduce((n, f) => n + f.posts.length, 0) + src.videos.reduce((n, c) => n + c.videos.length, 0) + src.feeds.reduce((n, f) => n + f.entries.length, 0) + src.streams.filter((a) => a.live).length;
  parts.push(['h:@sources', '<h2>Socials sources</h2>'], ['@sources', '<button data-id="@sources" class="' + (chosen === '@sources' ? 'on' : '') + '">What the sources publish <span class="sub">' + items + '</span></button>']);
  parts.push(['h:@answers', '<h2>Members answered</h2>'], ['@answers', '<button data-id="@answers" class="' + (chosen === '@answers' ? 'on' : '') + '">Interaction answers <span class="sub">' + answers + '</span></button>']);
  return parts;
}
/** The members of the open channel's guild (of every guild elsewhere) with their roles: what a reaction role or a verifier granted shows here. */
function peopleParts() {
  const open = currentChannel();
  const ids = new Set(state.guilds.map((g) => g.id).concat(Object.keys(state.members)));
  const shown = open && open.guild_id ? [open.guild_id] : [...ids];
  const parts = [];
  for (const guildId of shown) {
    const guild = state.guilds.find((g) => g.id === guildId) || { id: guildId, name: null, members: null, roles: {}, owner_id: null, grants: {} };
    const roleSets = state.members[guildId] || {};
    const people = new Set(Object.keys(roleSets).concat(Object.keys(guild.members || {})));
    people.delete(state.bot_user.id);
    parts.push(['g:' + guildId, '<h2>' + esc(guild.name || 'Guild ' + guildId) + ' · ' + people.size + '</h2>']);
    const presence = state.presences[guildId] || {}, voice = state.voice[guildId] || {};
    for (const id of [...people].sort((a, b) => userName(a).localeCompare(userName(b)))) {
      const grant = guild.grants && guild.grants[id];
      const roles = (guild.owner_id === id ? '<span class="role" title="owns the guild: every permission">owner</span>' : '')
        + (roleSets[id] || []).map((r) => '<span class="role" title="role ' + esc(r) + '">@' + esc((guild.roles && guild.roles[r]) || 'role-' + r.slice(-4)) + '</span>').join('')
        + (grant ? '<span class="role" title="permissions given without a role">+' + esc(grant) + '</span>' : '');
      const left = guild.members && !guild.members[id];
      const where = [presence[id], voice[id] ? '🔊 ' + channelName(voice[id]) : '', left ? 'not in the guild' : ''].filter(Boolean).map(esc).join(' · ');
      parts.push(['m:' + guildId + ':' + id, '<div class="member' + (id === actor ? ' me' : '') + '" data-u="' + esc(id) + '"><button class="tool" data-act="act-as" data-user="' + esc(id) + '" title="act as ' + esc(id) + '">' + esc(userName(id)) + '</button> <span class="sub">' + esc(id) + (where ? ' · ' + where : '') + '</span><div class="roles">' + (roles || '<span class="sub">no roles</span>') + '</div></div>']);
    }
  }
  return parts.length ? parts : [['none', '<p class="sub">No guild yet: members appear here once one joins or gets a role.</p>']];
}
function memberAnswersHtml(userId) {
  const mine = state.started.filter((i) => i.user_id === userId).reverse();
  if (!mine.length) return '<p class="sub">' + esc(userName(userId)) + ' has started no interaction yet.</p>';
  return mine.map((i) => {
    const callbacks = state.interactions.filter((c) => c.interaction_id === i.id);
    const followUps = state.webhooks[state.bot_user.id + '/' + i.token] || [];
    return '<div class="embed"><div class="sub">' + (i.type === 2 ? 'ran /' + esc(i.command) : i.type === 4 ? 'typed in /' + esc(i.command) : (i.type === 5 ? 'submitted ' : 'clicked ') + esc(i.custom_id)) + ' in #' + esc(channelName(i.channel_id)) + '</div>'
      + callbacks.map((c) => c.type === 8 ? '<div class="note">suggested: ' + ((c.data.choices || []).map((ch) => esc(ch.name)).join(', ') || 'nothing') + '</div>' : c.type === 5 && !c.data.content ? '<div class="note">the bot is thinking…</div>' : c.type === 9 ? '<div class="note">a form: "' + esc(c.data.title) + '" <button class="tool" data-act="open-modal" data-id="' + esc(i.id) + '">Fill in</button></div>' : c.data.content ? markdown(c.data.content) + (c.data.embeds || []).map(embedHtml).join('') : '<div class="note">callback type ' + c.type + '</div>').join('')
      + followUps.map((m) => (m.content ? markdown(m.content) : '') + (m.embeds || []).map(embedHtml).join('')).join('')
      + (callbacks.length || followUps.length ? '' : '<div class="sub">no answer (yet)</div>') + '</div>';
  }).join('');
}
function answersHtml() {
  if (/^\\d{1,20}$/.test(actor)) return '<h3>Answers ' + esc(userName(actor)) + ' was given (only they see the ephemeral ones)</h3>' + memberAnswersHtml(actor) + '<h3>Every answer</h3>' + allAnswersHtml();
  return allAnswersHtml();
}
function allAnswersHtml() {
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
const parse = (html) => { const t = document.createElement('template'); t.innerHTML = html; return t.content.firstElementChild; };
/** How to find an element again once the part holding it is rebuilt, so a keyboard user keeps their place. */
function findAgain(el) { if (el.id) return '#' + CSS.escape(el.id); const d = Object.entries(el.dataset); return d.length ? el.tagName.toLowerCase() + d.map(([k, v]) => '[data-' + k + '="' + CSS.escape(v) + '"]').join('') : null; }
let waiting = false;
/**
 * Brings a container's children to the given keyed parts, rebuilding only
 * the parts whose HTML changed. A part holding a field being typed in or a
 * select being used waits until focus leaves it; a part holding a focused
 * button is rebuilt with the focus put back on the same control.
 */
function patch(box, parts) {
  const had = new Map();
  for (const el of [...box.children]) if (el._key === undefined) el.remove(); else had.set(el._key, el);
  const keys = new Set(parts.map(([key]) => key));
  for (const [key, el] of had) if (!keys.has(key)) el.remove();
  parts.forEach(([key, html], i) => {
    let el = had.get(key);
    if (!el || el._html !== html) {
      const active = el && el.contains(document.activeElement) ? document.activeElement : null;
      if (active && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) waiting = true;
      else {
        const fresh = parse(html);
        fresh._key = key; fresh._html = html;
        if (el) el.replaceWith(fresh);
        el = fresh;
        const again = active && findAgain(active);
        if (again) { const same = fresh.matches(again) ? fresh : fresh.querySelector(again); if (same) same.focus(); }
      }
    }
    if (box.children[i] !== el) box.insertBefore(el, box.children[i] || null);
  });
}
function mainParts(channel) {
  if (chosen === '@answers') return [['@answers', '<div>' + answersHtml() + '</div>']];
  if (chosen === '@sources') return [['@sources', '<div>' + sourcesHtml() + '</div>']];
  if (!channel) return [['none', '<p class="sub">When the bot posts, channels appear on the side.</p>']];
  return channel.messages.length ? channel.messages.map((m) => ['m:' + m.id, messageHtml(m)]) : [['empty', '<p class="sub">No messages.</p>']];
}
let pressing = 0, wanted = false;
/** Shows the state; while a pointer is down it waits, so the element pressed is still there when it is released (else the click is lost). */
function render() {
  if (pressing && Date.now() - pressing < 3000) { wanted = true; return; }
  wanted = false;
  if (!chosen && state.channels.length) chosen = state.channels[state.channels.length - 1].id;
  patch(document.getElementById('side'), sidebarParts());
  const channel = state.channels.find((c) => c.id === chosen);
  const title = chosen === '@answers' ? 'Interaction answers' : chosen === '@sources' ? 'Socials sources' : channel ? (channel.recipients ? '@' + userName(channel.recipients[0].id) : '# ' + (channel.name || channel.id)) : 'Nothing posted yet';
  const header = document.getElementById('title');
  if (header.textContent !== title) header.textContent = title;
  const box = document.getElementById('messages');
  const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
  const height = document.body.scrollHeight;
  patch(box, mainParts(channel));
  if (atBottom && document.body.scrollHeight !== height) window.scrollTo(0, document.body.scrollHeight);
  patch(document.getElementById('people-list'), peopleParts());
  tools();
}
// A pointer held longer than 3 s (a select's popup may swallow its release) no longer holds the page still.
document.addEventListener('pointerdown', () => { pressing = Date.now(); setTimeout(() => { if (wanted) render(); }, 3100); }, true);
const released = () => { pressing = 0; if (wanted) setTimeout(render, 0); };
document.addEventListener('pointerup', released, true);
document.addEventListener('pointercancel', released, true);
document.addEventListener('focusout', () => { if (waiting) { waiting = false; setTimeout(render, 0); } });
document.addEventListener('click', (event) => { const b = event.target.closest('nav button'); if (b) { chosen = b.dataset.id; render(); window.scrollTo(0, document.body.scrollHeight); } });
let actor = localStorage.getItem('sandbox-actor') || '';
const say = (text) => { document.getElementById('status').textContent = text; };
/** The bot's answer in the status line, its markdown and mentions rendered on one line. */
const sayAnswer = (lead, text) => { document.getElementById('status').innerHTML = esc(lead) + (text ? ': ' + inline(esc(text.replace(/\\s*\\n+\\s*/g, ' '))) : '.'); };
async function control(method, path, body) {
  const response = await fetch('/_sandbox' + path, { method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  if (!response.ok) { say('Refused (' + response.status + '): ' + ((json && json.message) || '') + (json && json.errors ? ' ' + JSON.stringify(json.errors) : '')); throw new Error('refused'); }
  say('');
  return json;
}
function who() { if (!/^\\d{1,20}$/.test(actor)) { say('First choose who you act as: a member ID (digits) in "Acting as".'); throw new Error('no member'); } return actor; }
const currentChannel = () => state.channels.find((c) => c.id === chosen);
function currentGuild() { const c = currentChannel(); if (!c || !c.guild_id) { say('Open a channel of a guild first.'); throw new Error('no guild'); } return c.guild_id; }
const emojiPath = (key) => encodeURIComponent(key);
/** The interaction the person started last, until another: its answers come with the state, live. */
let pending = null;
async function clickComponent(msg, customId, values) {
  const started = await control('POST', '/channels/' + msg.dataset.c + '/messages/' + msg.dataset.m + '/click', values ? { user_id: who(), custom_id: customId, values } : { user_id: who(), custom_id: customId });
  awaitAnswer(started.interaction_id, 'Clicked ' + customId);
}
function awaitAnswer(id, what) {
  pending = { id, seen: 0 };
  say(what + '; waiting for the bot…');
  setTimeout(() => { if (pending && pending.id === id && !pending.seen) say(what + '; no answer from the bot yet (is one connected to the gateway?).'); }, 10000);
  showAnswer();
}
const answerText = (d) => { if (!d) return ''; if (d.content) return d.content; const e = (d.embeds || [])[0]; return e ? [e.title, e.description].filter(Boolean).join(': ') : ''; };
/** The latest answer to the pending interaction, in the status line: a follow-up's text, else the callback's; a modal opens as a form. */
function showAnswer() {
  if (!pending) return;
  const started = state.started.find((i) => i.id === pending.id);
  const callbacks = state.interactions.filter((c) => c.interaction_id === pending.id);
  const followUps = started ? state.webhooks[state.bot_user.id + '/' + started.token] || [] : [];
  if (callbacks.length + followUps.length === pending.seen) return;
  pending.seen = callbacks.length + followUps.length;
  const callback = callbacks[0], last = followUps[followUps.length - 1];
  if (callback && callback.type === 9) { const id = pending.id; pending = null; say('The bot asks you to fill in "' + callback.data.title + '".'); openModal(id, callback.data); return; }
  const text = answerText(last) || (callback ? answerText(callback.data) : '');
  if (!text && callback && callback.type === 5) return say('The bot is thinking…');
  sayAnswer(!last && callback && callback.type === 7 ? 'The bot updated the message' : !last && callback && callback.type === 6 ? 'The bot took the click without answering' : 'The bot answered', text);
}
function openModal(interactionId, data) {
  const dialog = document.getElementById('modal');
  const inputs = (data.components || []).flatMap((row) => row.components || (row.component ? [row.component] : [])).filter((c) => c.type === 4);
  dialog.innerHTML = '<form method="dialog"><b>' + esc(data.title) + '</b>' + inputs.map((c) => '<label>' + esc(c.label || c.custom_id) + '<input name="' + esc(c.custom_id) + '"' + (c.required === false ? '' : ' required') + (c.max_length ? ' maxlength="' + Number(c.max_length) + '"' : '') + '></label>').join('')
    + '<p><button class="tool" value="submit">Submit</button> <button class="tool" value="cancel" formnovalidate>Cancel</button></p></form>';
  dialog.querySelector('form').addEventListener('submit', async (event) => {
    if (event.submitter && event.submitter.value === 'cancel') return;
    const values = Object.fromEntries(inputs.map((c) => [c.custom_id, dialog.querySelector('[name="' + CSS.escape(c.custom_id) + '"]').value]));
    try { const submitted = await control('POST', '/interactions/' + interactionId + '/submit', { user_id: who(), custom_id: data.custom_id, values }); awaitAnswer(submitted.interaction_id, 'Submitted "' + data.title + '"'); } catch (e) {}
  });
  dialog.showModal();
}
document.addEventListener('click', async (event) => {
  const el = event.target.closest('[data-act]');
  if (!el || el.tagName === 'SELECT') return;
  const msg = el.closest('.msg');
  try {
    switch (el.dataset.act) {
      case 'click': return await clickComponent(msg, el.dataset.custom);
      case 'pick-send': { const select = msg.querySelector('select[data-custom="' + CSS.escape(el.dataset.custom) + '"]'); return await clickComponent(msg, el.dataset.custom, [...select.selectedOptions].map((o) => o.value)); }
      case 'vote': return await control('PUT', '/channels/' + msg.dataset.c + '/messages/' + msg.dataset.m + '/poll/answers/' + el.dataset.answer + '/' + who());
      case 'unreact': event.stopPropagation(); return await control('DELETE', '/channels/' + msg.dataset.c + '/messages/' + msg.dataset.m + '/reactions/' + emojiPath(el.dataset.emoji) + '/' + who());
      case 'react': if (event.target.closest('.take')) return; return await control('PUT', '/channels/' + msg.dataset.c + '/messages/' + msg.dataset.m + '/reactions/' + emojiPath(el.dataset.emoji) + '/' + who());
      case 'react-new': { const e = prompt('Emoji to react with (e.g. 👍, or name:id for a custom one)'); if (e) await control('PUT', '/channels/' + msg.dataset.c + '/messages/' + msg.dataset.m + '/reactions/' + emojiPath(e.trim()) + '/' + who()); return; }
      case 'open-modal': { const modal = state.interactions.find((c) => c.interaction_id === el.dataset.id && c.type === 9); if (modal) openModal(el.dataset.id, modal.data); return; }
      case 'act-as': { actor = el.dataset.user; localStorage.setItem('sandbox-actor', actor); document.getElementById('actor').value = actor; say('Acting as ' + userName(actor) + '.'); render(); return; }
      case 'join': return await control('POST', '/guilds/' + currentGuild() + '/members/' + who() + '/join', {});
      case 'leave': return await control('POST', '/guilds/' + currentGuild() + '/members/' + who() + '/leave');
      case 'join-invite': { const code = document.getElementById('invite').value.trim().split('/').pop(); if (!code) return say('Type an invite code first.'); return await control('POST', '/guilds/' + currentGuild() + '/members/' + who() + '/join-via-invite/' + encodeURIComponent(code), {}); }
      case 'join-vanity': return await control('POST', '/guilds/' + currentGuild() + '/members/' + who() + '/join-via-vanity', {});
      case 'post': { const input = document.getElementById('say'); const c = currentChannel(); if (!c) return say('Open a channel first.'); if (!input.value.trim()) return; await control('POST', '/channels/' + c.id + '/messages', { author_id: who(), content: input.value }); input.value = ''; return; }
    }
  } catch (e) {}
});
document.addEventListener('change', async (event) => {
  const el = event.target;
  try {
    if (el.id === 'actor') { actor = el.value.trim(); localStorage.setItem('sandbox-actor', actor); render(); return; }
    if (el.id === 'presence') { await control('PUT', '/guilds/' + currentGuild() + '/presences/' + who(), { status: el.value, activities: [] }); return; }
    if (el.id === 'voice') { await control('PUT', '/guilds/' + currentGuild() + '/voice/' + who(), { channel_id: el.value || null }); return; }
    if (el.dataset.act === 'pick' && !el.multiple && el.value) await clickComponent(el.closest('.msg'), el.dataset.custom, [el.value]);
  } catch (e) {}
});
document.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && event.target.id === 'say') document.querySelector('[data-act="post"]').click();
  // Reactions and poll answers are not buttons (a reaction holds its own take-back control), so Enter and Space press them here.
  else if ((event.key === 'Enter' || event.key === ' ') && event.target.matches('[data-act][role="button"]')) { event.preventDefault(); event.stopPropagation(); event.target.click(); }
});
function tools() {
  const known = new Set(Object.keys(state.users));
  for (const g of Object.values(state.members)) for (const id of Object.keys(g)) known.add(id);
  for (const g of state.guilds) for (const id of Object.keys(g.members || {})) known.add(id);
  known.delete(state.bot_user.id);
  const options = [...known].map((id) => '<option value="' + esc(id) + '">' + esc(userName(id)) + '</option>').join('');
  const list = document.getElementById('members');
  if (list._html !== options) { list.innerHTML = options; list._html = options; }
  const c = currentChannel();
  const voice = c && c.guild_id ? state.channels.filter((x) => x.guild_id === c.guild_id && x.type === 2) : [];
  const select = document.getElementById('voice');
  if (document.activeElement !== select) {
    const here = c && c.guild_id && state.voice[c.guild_id] ? state.voice[c.guild_id][actor] || '' : '';
    select.innerHTML = '<option value="">not in voice</option>' + voice.map((v) => '<option value="' + esc(v.id) + '"' + (v.id === here ? ' selected' : '') + '>🔊 ' + esc(v.name || v.id) + '</option>').join('');
  }
  const actorInput = document.getElementById('actor');
  if (document.activeElement !== actorInput) actorInput.value = actor;
}

/** The commands a member of the guild sees (the guild's, then global ones), subcommands as "giveaway start", each with its options. */
function guildCommands(guildId) {
  const all = state.commands || [];
  const own = all.filter((c) => c.guild_id === guildId && (c.type || 1) === 1);
  const global = all.filter((c) => !c.guild_id && (c.type || 1) === 1 && !own.some((o) => o.name === c.name));
  const out = [];
  const walk = (c, names, options, description) => {
    const subs = (options || []).filter((o) => o.type === 1 || o.type === 2);
    if (!subs.length) return out.push({ command: c, name: names.join(' '), description, options: options || [] });
    for (const s of subs) walk(c, [...names, s.name], s.options, s.description);
  };
  for (const c of [...own, ...global]) walk(c, [c.name], c.options, c.description);
  return out;
}
const OPTION_KINDS = { 3: 'text', 4: 'integer', 5: 'yes/no', 6: 'member', 7: 'channel', 8: 'role', 9: 'member or role', 10: 'number', 11: 'file' };
const locked = (c) => c.default_member_permissions === null || c.default_member_permissions === undefined ? '' : ' <span class="sub">🔒 ' + (c.default_member_permissions === '0' ? 'admins' : 'needs permission ' + esc(c.default_member_permissions)) + '</span>';
const optionSummary = (o) => '<code>' + esc(o.name) + (o.required ? '' : '?') + '</code>' + (o.autocomplete ? '…' : '');
/** The list under the "/" box: the guild's commands matching what is typed. */
function slashList() {
  const list = document.getElementById('cmd-list');
  const typed = document.getElementById('cmd').value.replace(/^\\//, '').trim().toLowerCase();
  const c = currentChannel();
  if (!c || !c.guild_id) { list.innerHTML = '<div class="sub">Open a channel of a guild to see its commands.</div>'; return; }
  const found = guildCommands(c.guild_id).filter((x) => x.name.startsWith(typed) || !typed);
  list.innerHTML = found.length ? found.map((x) => '<button type="button" class="cmd" data-cmd="' + esc(x.name) + '"><b>/' + esc(x.name) + '</b> ' + x.options.map(optionSummary).join(' ') + locked(x.command) + '<div class="sub">' + esc(x.description) + '</div></button>').join('')
    : '<div class="sub">' + ((state.commands || []).length ? 'No command of this guild starts with "' + esc(typed) + '".' : 'No command registered: a bot registers them (PUT /applications/{id}/commands).') + '</div>';
}
let chosenCommand = null, typing = null;
/** The form of one command: a field per option (choices as a select, yes/no as a checkbox, autocompleted ones suggest as the member types). */
function openCommand(name) {
  const c = currentChannel();
  const found = c && c.guild_id ? guildCommands(c.guild_id).find((x) => x.name === name) : null;
  if (!found) return;
  chosenCommand = { guild: c.guild_id, channel: c.id, name, options: found.options };
  document.getElementById('cmd').value = '/' + name;
  document.getElementById('cmd-list').innerHTML = '';
  const field = (o) => {
    const id = 'opt-' + o.name;
    const input = o.choices && o.choices.length ? '<select id="' + esc(id) + '" data-opt="' + esc(o.name) + '"><option value=""></option>' + o.choices.map((ch) => '<option value="' + esc(ch.value) + '">' + esc(ch.name) + '</option>').join('') + '</select>'
      : o.type === 5 ? '<input type="checkbox" id="' + esc(id) + '" data-opt="' + esc(o.name) + '">'
      : '<input id="' + esc(id) + '" data-opt="' + esc(o.name) + '"' + (o.autocomplete ? ' list="' + esc(id) + '-list" data-auto="1"' : '') + (o.type === 4 || o.type === 10 ? ' inputmode="decimal"' : '') + (o.required ? ' required' : '') + '>' + (o.autocomplete ? '<datalist id="' + esc(id) + '-list"></datalist>' : '');
    return '<label>' + esc(o.name) + (o.required ? ' *' : '') + ' <span class="sub">' + esc(OPTION_KINDS[o.type] || 'type ' + o.type) + ' · ' + esc(o.description) + '</span><br>' + input + '</label>';
  };
  document.getElementById('cmd-form').innerHTML = '<b>/' + esc(name) + '</b> ' + locked(found.command) + found.options.map(field).join('') + '<p><button class="tool" type="submit">Run</button> <button class="tool" type="button" data-act="cmd-cancel">Cancel</button></p>';
  const first = document.querySelector('#cmd-form [data-opt]');
  if (first) first.focus();
}
function commandValues(except) {
  const values = {};
  for (const el of document.querySelectorAll('#cmd-form [data-opt]')) {
    if (el.dataset.opt === except) continue;
    if (el.type === 'checkbox') { if (el.checked) values[el.dataset.opt] = true; }
    else if (el.value !== '') values[el.dataset.opt] = el.value;
  }
  return values;
}
/** A member typing an autocompleted option: the bot is asked (type 4), its choices (callback 8) fill the field's suggestions. */
async function suggest(el) {
  if (!chosenCommand) return;
  const options = commandValues(el.dataset.opt);
  options[el.dataset.opt] = el.value;
  try {
    const started = await control('POST', '/guilds/' + chosenCommand.guild + '/commands/' + encodeURIComponent(chosenCommand.name) + '/run', { user_id: who(), channel_id: chosenCommand.channel, options, focused: el.dataset.opt });
    typing = { id: started.interaction_id, list: el.getAttribute('list') };
    showChoices();
  } catch (e) {}
}
function showChoices() {
  if (!typing) return;
  const answer = state.interactions.find((c) => c.interaction_id === typing.id && c.type === 8);
  if (!answer) return;
  const list = document.getElementById(typing.list);
  const choices = answer.data.choices || [];
  if (list) list.innerHTML = choices.map((ch) => '<option value="' + esc(ch.value) + '">' + esc(ch.name) + '</option>').join('');
  say(choices.length ? 'The bot suggests: ' + choices.map((ch) => ch.name).join(', ') + '.' : 'The bot suggests nothing for what you typed.');
  typing = null;
}
let suggestTimer = null;
document.addEventListener('input', (event) => {
  const el = event.target;
  if (el.id === 'cmd') { chosenCommand = null; document.getElementById('cmd-form').innerHTML = ''; slashList(); return; }
  if (el.dataset && el.dataset.auto) { clearTimeout(suggestTimer); suggestTimer = setTimeout(() => suggest(el), 250); }
});
document.getElementById('cmd').addEventListener('focus', () => { if (!chosenCommand) slashList(); });
document.getElementById('cmd').addEventListener('keydown', (event) => {
  if (event.key === 'Escape') { event.target.value = ''; document.getElementById('cmd-list').innerHTML = ''; }
  if (event.key === 'Enter') { const first = document.querySelector('#cmd-list [data-cmd]'); if (first) openCommand(first.dataset.cmd); }
});
document.getElementById('cmd-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!chosenCommand) return;
  const run = chosenCommand;
  try {
    const started = await control('POST', '/guilds/' + run.guild + '/commands/' + encodeURIComponent(run.name) + '/run', { user_id: who(), channel_id: run.channel, options: commandValues(null) });
    awaitAnswer(started.interaction_id, 'Ran /' + run.name);
    chosenCommand = null; document.getElementById('cmd-form').innerHTML = ''; document.getElementById('cmd').value = '';
  } catch (e) {}
});
document.addEventListener('click', (event) => {
  const pick = event.target.closest('[data-cmd]');
  if (pick) return openCommand(pick.dataset.cmd);
  if (event.target.closest('[data-act="cmd-cancel"]')) { chosenCommand = null; document.getElementById('cmd-form').innerHTML = ''; document.getElementById('cmd').value = ''; }
  else if (!event.target.closest('#slash')) document.getElementById('cmd-list').innerHTML = '';
});
let loading = false, again = false;
/** Reads the state once per change notice; notices during a read make one more read after it. */
async function load() {
  if (loading) { again = true; return; }
  loading = true;
  try { do { again = false; state = await (await fetch('/_sandbox/state')).json(); render(); showAnswer(); showChoices(); } while (again); }
  catch (e) { say('Could not read the sandbox state (' + e.message + ').'); }
  finally { loading = false; }
}
/** Follows the sandbox through its change notices (server-sent events); the browser reconnects by itself, and the notice it gets then says whether anything was missed. */
function follow(revision) {
  const live = document.getElementById('live');
  const events = new EventSource('/_sandbox/events');
  events.addEventListener('change', (event) => { const now = JSON.parse(event.data).revision; if (now !== revision) { revision = now; load(); } });
  events.onopen = () => { live.textContent = '● live'; };
  events.onerror = () => { live.textContent = '○ reconnecting…'; };
}
`;

/** The page; it renders the state it fetches, and the first state inline so it shows at once. */
export function renderPage(state: SandboxSnapshot, apiUrl: string, revision: number): string {
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
<nav><h1>Sandbox platform</h1><p>API <code>${apiUrl.replace(/[<&>"]/g, '')}</code> · <a href="/_sandbox/state">state</a> · <a href="/_sandbox/requests">requests</a> · <span id="live">connecting…</span></p><div id="side"></div></nav>
<main><header id="title">Loading…</header>
<div class="bar-tools"><label>Acting as <input id="actor" list="members" size="20" placeholder="member ID" inputmode="numeric"></label><datalist id="members"></datalist>
<button class="tool" data-act="join">Join guild</button><button class="tool" data-act="leave">Leave</button>
<input id="invite" size="10" placeholder="invite code"><button class="tool" data-act="join-invite">Join via invite</button><button class="tool" data-act="join-vanity">Join via vanity URL</button>
<select id="voice" aria-label="voice channel"></select>
<select id="presence" aria-label="presence"><option value="">presence…</option><option value="online">online</option><option value="idle">idle</option><option value="dnd">do not disturb</option><option value="offline">offline</option></select>
</div><div id="messages"><noscript>This page needs JavaScript; the state is at <a href="/_sandbox/state">/_sandbox/state</a>.</noscript></div>
<footer id="foot"><div id="status" role="status" aria-live="polite"></div><div id="slash"><input id="cmd" placeholder="/ run a command of this guild…" autocomplete="off" aria-label="command"><div id="cmd-list" role="listbox" aria-label="commands"></div><form id="cmd-form" aria-label="command options"></form></div><div id="composer"><input id="say" placeholder="Post as the member you act as…" maxlength="2000" aria-label="message"><button class="tool" data-act="post">Send</button></div></footer></main>
<aside id="people" aria-label="Members and their roles"><h1>Members</h1><div id="people-list"></div></aside>
<dialog id="modal"></dialog>
</div>
<script>window.__initial = ${initial};</script>
<script>${script}
state = window.__initial; render(); follow(${revision});</script>
</body>
</html>`;
}

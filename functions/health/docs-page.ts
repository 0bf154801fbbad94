/**
 * The /docs page: one self-contained HTML document (styles and script
 * inline, nothing fetched from elsewhere) that reads ./openapi.json, the
 * document served beside it, and renders every operation.
 */
const style = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
header{background:#23272f;color:#fff;padding:18px 28px}header h1{margin:0;font-size:22px}
header p{margin:6px 0 0;color:#c9ced6;max-width:900px}
main{max-width:1100px;margin:0 auto;padding:18px 28px}
#filter{width:100%;padding:8px 10px;font-size:15px;border:1px solid #c8ccd2;border-radius:6px;margin-bottom:14px}
h2{font-size:18px;margin:26px 0 8px;text-transform:none}
details{background:#fff;border:1px solid #dde1e6;border-radius:6px;margin:6px 0}
summary{cursor:pointer;padding:8px 12px;display:flex;gap:10px;align-items:center}
.m{font:600 12px monospace;padding:2px 8px;border-radius:4px;color:#fff;min-width:54px;text-align:center}
.GET{background:#2f7d4f}.POST{background:#2c5fb8}.PUT{background:#a1661a}.DELETE{background:#b3392f}
.p{font-family:monospace}.s{color:#5b6470}.a{margin-left:auto;font-size:12px;color:#5b6470}
.body{padding:4px 16px 14px}table{border-collapse:collapse;width:100%;font-size:14px}
td,th{border-bottom:1px solid #eceef1;padding:4px 6px;text-align:left;vertical-align:top}
pre{background:#f3f4f6;padding:10px;border-radius:6px;overflow:auto;font-size:12.5px}`;

const script = `
const esc = (t) => String(t).replace(/[&<>"']/g, (c) => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]));
const typeOf = (s) => !s ? '' : s.type ? (Array.isArray(s.type) ? s.type.join(' | ') : s.type) : s.anyOf ? s.anyOf.map(typeOf).join(' | ') : s.enum ? 'one of ' + s.enum.map((v) => JSON.stringify(v)).join(', ') : s.const !== undefined ? JSON.stringify(s.const) : 'any';
function operation(path, method, op) {
  const params = (op.parameters || []).map((p) => '<tr><td class="p">' + esc(p.name) + '</td><td>' + esc(p.in) + '</td><td>' + (p.required ? 'required' : 'optional') + '</td><td>' + esc(typeOf(p.schema)) + '</td><td>' + esc((p.schema && p.schema.description) || p.description || '') + '</td></tr>').join('');
  const body = op.requestBody ? '<h4>Body (application/json)</h4><pre>' + esc(JSON.stringify(op.requestBody.content['application/json'].schema, null, 2)) + '</pre>' : '';
  const responses = Object.entries(op.responses).map(([code, r]) => '<tr><td>' + esc(code) + '</td><td>' + esc(r.description) + '</td></tr>').join('');
  return '<details data-text="' + esc((method + ' ' + path + ' ' + op.summary + ' ' + op.operationId).toLowerCase()) + '"><summary><span class="m ' + method.toUpperCase() + '">' + method.toUpperCase() + '</span><span class="p">' + esc(path) + '</span><span class="s">' + esc(op.summary || '') + '</span><span class="a">' + esc(op['x-access']) + '</span></summary><div class="body">'
    + (op.description ? '<p>' + esc(op.description) + '</p>' : '')
    + (params ? '<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th></th><th>type</th><th></th></tr>' + params + '</table>' : '')
    + body + '<h4>Responses</h4><table>' + responses + '</table></div></details>';
}
fetch('openapi.json').then((r) => r.json()).then((doc) => {
  document.getElementById('title').textContent = doc.info.title + ' (v' + doc.info.version + ')';
  document.getElementById('intro').textContent = doc.info.description;
  const groups = {};
  for (const [path, methods] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(methods)) (groups[op.tags[0]] = groups[op.tags[0]] || []).push(operation(path, method, op));
  document.getElementById('ops').innerHTML = Object.entries(groups).map(([tag, ops]) => '<section><h2>' + esc(tag) + '</h2>' + ops.join('') + '</section>').join('');
  document.getElementById('filter').addEventListener('input', (e) => {
    const q = e.target.value.toLowerCase();
    for (const d of document.querySelectorAll('details')) d.style.display = d.dataset.text.includes(q) ? '' : 'none';
  });
}).catch((e) => { document.getElementById('ops').textContent = 'Could not load openapi.json: ' + e; });`;

export const docsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>API documentation</title><style>${style}</style></head>
<body><header><h1 id="title">API documentation</h1><p id="intro"></p>
<p>Authenticate with <code>Authorization: Bearer &lt;token&gt;</code>. The raw document is at <a href="openapi.json" style="color:#9cc3ff">openapi.json</a>.</p></header>
<main><input id="filter" placeholder="Filter operations (path, method, summary)"><div id="ops">Loading…</div></main>
<script>${script}</script></body></html>`;

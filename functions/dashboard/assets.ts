/**
 * The dashboard's style sheet and script, as text bundled into the asset
 * function: plain browser JavaScript (no framework, no build step of its
 * own). The script fills each module's section of the guild page from the
 * API with the session cookie, every change carrying the page's CSRF
 * token: the module's state with enable/disable, its settings as a form
 * built from the OpenAPI document (/openapi.json: the rules the document
 * states are checked before sending, the service's refusal is shown at the
 * field it names), its lists (paged, with create, edit and delete where the
 * API has them; the lists under an item, such as a panel's entries, opened
 * from its row; a required query filter asked for first) and its
 * diagnostics.
 */

export const STYLE = `:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.45; }
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; background: #f6f7f9; color: #1b1e23; }
header { background: #1f3a93; padding: 0.6rem 1rem; }
header a { color: #fff; font-weight: 600; text-decoration: none; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
a { color: #1f3a93; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 0.5rem; background: #fff; padding: 0.3rem; z-index: 1; }
button, .button { font: inherit; padding: 0.35rem 0.8rem; border: 1px solid #1f3a93; border-radius: 6px; background: #1f3a93; color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary { background: #fff; color: #1f3a93; }
button.danger { background: #a61e1e; border-color: #a61e1e; }
:focus-visible { outline: 3px solid #b35c00; outline-offset: 2px; }
.module { background: #fff; border: 1px solid #d5d9e0; border-radius: 8px; padding: 0.5rem 1rem 1rem; margin: 1rem 0; }
.modules { display: flex; flex-wrap: wrap; gap: 0.2rem 1rem; padding: 0; list-style: none; }
fieldset { border: 1px solid #d5d9e0; border-radius: 6px; margin: 0.6rem 0; }
.field { margin: 0.4rem 0; }
.field label { display: block; font-weight: 600; }
.field .hint { color: #4a5260; font-size: 0.9em; margin: 0; }
.field input[type=text], .field input[type=number], .field select, .field textarea { font: inherit; width: 100%; max-width: 32rem; padding: 0.25rem; border: 1px solid #6b7280; border-radius: 4px; }
.error { color: #a61e1e; font-weight: 600; margin: 0.2rem 0; }
.ok { color: #1d6b2f; }
table { border-collapse: collapse; width: 100%; font-size: 0.92em; }
th, td { border-bottom: 1px solid #d5d9e0; padding: 0.25rem; text-align: left; vertical-align: top; }
.state { font-weight: 600; }
`;

export const SCRIPT = String.raw`(function () {
  'use strict';
  function meta(name) { var m = document.querySelector('meta[name="' + name + '"]'); return m ? m.getAttribute('content') : ''; }
  var base = meta('gmms-base'), guildId = meta('gmms-guild'), csrf = meta('gmms-csrf');
  var doc = null, uid = 0;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === 'text') node.textContent = v; else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v); else node.setAttribute(k, v === true ? '' : v);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return node;
  }
  function nextId(prefix) { uid += 1; return prefix + '-' + uid; }

  function api(method, path, query, body) {
    var q = new URLSearchParams(query || {}).toString();
    var init = { method: method, credentials: 'same-origin', headers: { accept: 'application/json' } };
    if (method !== 'GET') init.headers['x-csrf-token'] = csrf;
    if (body !== undefined) { init.headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
    var tries = 0;
    function attempt() {
      return fetch(base + path + (q ? '?' + q : ''), init).then(function (r) {
        // Past the member's rate (a guild key's): wait as told, a few times.
        if (r.status === 429 && tries++ < 3) {
          var wait = Number(r.headers.get('retry-after')) || 1;
          return new Promise(function (done) { setTimeout(done, wait * 1000); }).then(attempt);
        }
        return r.json().catch(function () { return {}; }).then(function (j) { return { status: r.status, ok: r.ok, data: j.data || {}, error: j.error || null }; });
      });
    }
    return attempt();
  }

  function deref(s) {
    var guard = 0;
    while (s && s.$ref && guard++ < 10) s = s.$ref.split('/').slice(1).reduce(function (o, k) { return o[k]; }, doc);
    return s || {};
  }
  function types(s) { return [].concat(s.type || []); }
  // A choice of one kind or null (anyOf [{ type: string, maxLength }, { type: null }]) read as that kind, nullable.
  function flat(s) {
    s = deref(s);
    var alts = (s.anyOf || s.oneOf || []).map(deref), other = alts.filter(function (a) { return types(a).join() !== 'null'; });
    if (other.length !== 1 || other.length === alts.length) return s;
    return Object.assign({}, other[0], { type: types(other[0]).concat('null'), description: s.description || other[0].description });
  }
  function op(path, method) { var p = doc.paths[path]; var o = p && p[method]; return o && o['x-access'] === 'client' ? o : null; }
  function bodySchema(o) { return deref(o.requestBody && o.requestBody.content['application/json'].schema); }
  function dataSchema(o) {
    var s = o.responses['200'] && o.responses['200'].content && o.responses['200'].content['application/json'];
    return s ? deref(deref(s.schema).properties.data) : {};
  }

  // The rules of a JSON schema the document states, checked before sending: { field: message }.
  function check(schema, value) {
    var problems = {};
    function add(f, m) { if (!problems[f]) problems[f] = m; }
    function one(f, s, v) {
      s = flat(s);
      if (v === undefined) return;
      var t = types(s);
      if (v === null) { if (t.length && t.indexOf('null') < 0) add(f, 'A value is required.'); return; }
      if (s.not && s.not.type === 'null' && v === null) add(f, 'A value is required.');
      if (s.const !== undefined && v !== s.const) add(f, 'Must be ' + JSON.stringify(s.const) + '.');
      if (s.enum && s.enum.indexOf(v) < 0) add(f, 'Must be one of ' + s.enum.join(', ') + '.');
      if (typeof v === 'string') {
        if (s.minLength !== undefined && v.length < s.minLength) add(f, 'At least ' + s.minLength + ' characters.');
        if (s.maxLength !== undefined && v.length > s.maxLength) add(f, 'At most ' + s.maxLength + ' characters.');
        if (s.pattern && !new RegExp(s.pattern, 'u').test(v)) add(f, 'Must match ' + s.pattern + '.');
      }
      if (typeof v === 'number') {
        if (t.indexOf('integer') >= 0 && !Number.isInteger(v)) add(f, 'Must be a whole number.');
        if (s.minimum !== undefined && v < s.minimum) add(f, 'At least ' + s.minimum + '.');
        if (s.maximum !== undefined && v > s.maximum) add(f, 'At most ' + s.maximum + '.');
      }
      if (Array.isArray(v)) {
        if (s.minItems !== undefined && v.length < s.minItems) add(f, 'At least ' + s.minItems + ' items.');
        if (s.maxItems !== undefined && v.length > s.maxItems) add(f, 'At most ' + s.maxItems + ' items.');
      }
    }
    function object(s, v) {
      s = deref(s);
      (s.required || []).forEach(function (f) { if (v[f] === undefined || v[f] === '') add(f, 'Required.'); });
      Object.keys(s.properties || {}).forEach(function (f) {
        var p = s.properties[f];
        if (p.not && p.not.type === 'null' && v[f] === null) add(f, 'A value is required here.');
        if (!p.not) one(f, p, v[f]);
        if (p.const !== undefined && v[f] !== undefined && v[f] !== p.const) add(f, 'Must be ' + JSON.stringify(p.const) + ' here.');
      });
      (s.allOf || []).forEach(function (part) {
        if (part.if) { var holds = Object.keys(check(part.if, v)).length === 0; var then = holds ? part.then : part.else; if (then) object(then, v); } else object(part, v);
      });
    }
    object(schema, value);
    return problems;
  }

  // One input for one property, labelled, with its hint and a place for its refusal.
  function field(name, schema, value, required) {
    var s = flat(schema), t = types(s), id = nextId('f-' + name), errId = id + '-error', hintId = id + '-hint';
    var nullable = t.indexOf('null') >= 0, kind = t.filter(function (x) { return x !== 'null'; })[0] || (s.enum ? 'string' : 'json');
    var input;
    var common = { id: id, name: name, 'aria-describedby': hintId + ' ' + errId, 'data-kind': kind, 'data-nullable': nullable ? 'true' : null };
    if (kind === 'boolean') {
      input = el('select', common, [nullable || !required ? el('option', { value: '', text: nullable ? '(none)' : '(unchanged)' }) : null, el('option', { value: 'true', text: 'Yes' }), el('option', { value: 'false', text: 'No' })]);
      input.value = value === true ? 'true' : value === false ? 'false' : '';
    } else if (s.enum) {
      input = el('select', common, [el('option', { value: '', text: '(choose)' })].concat(s.enum.map(function (e) { return el('option', { value: e, text: e }); })));
      input.value = value === undefined || value === null ? '' : value;
    } else if (kind === 'integer' || kind === 'number') {
      common.type = 'number'; common.step = kind === 'integer' ? '1' : 'any';
      if (s.minimum !== undefined && Math.abs(s.minimum) < 1e15) common.min = s.minimum;
      if (s.maximum !== undefined && Math.abs(s.maximum) < 1e15) common.max = s.maximum;
      input = el('input', common); input.value = value === undefined || value === null ? '' : String(value);
    } else if (kind === 'array' && types(deref(s.items)).indexOf('string') >= 0) {
      // A list of IDs or words (an entry's roles): one text input, the values separated by commas.
      common.type = 'text'; common['data-kind'] = 'list';
      input = el('input', common); input.value = Array.isArray(value) ? value.join(', ') : '';
    } else if (kind === 'string') {
      common.type = 'text'; common.maxlength = s.maxLength; common.minlength = s.minLength;
      input = el('input', common); input.value = value === undefined || value === null ? '' : value;
    } else {
      input = el('textarea', Object.assign(common, { rows: '3', 'data-kind': 'json' })); input.value = value === undefined ? '' : JSON.stringify(value);
    }
    if (required && !nullable) input.setAttribute('aria-required', 'true');
    var hint = (s.description || '') + (common['data-kind'] === 'json' ? ' (JSON)' : '') + (common['data-kind'] === 'list' ? ' Separate several with commas.' : '') + (nullable ? ' Empty means none.' : '');
    return el('div', { class: 'field', 'data-field': name }, [
      el('label', { for: id, text: name.replace(/_/g, ' ') + (required && !nullable ? ' (required)' : '') }),
      input,
      el('p', { class: 'hint', id: hintId, text: hint }),
      el('p', { class: 'error', id: errId, role: 'alert' }),
    ]);
  }

  function valueOf(input) {
    var kind = input.getAttribute('data-kind'), raw = input.value, nullable = input.getAttribute('data-nullable') === 'true';
    if (raw === '') return nullable ? null : undefined;
    if (kind === 'boolean') return raw === 'true';
    if (kind === 'integer' || kind === 'number') return Number(raw);
    if (kind === 'list') return raw.split(/[\s,]+/).filter(function (v) { return v !== ''; });
    if (kind === 'json') { try { return JSON.parse(raw); } catch (e) { return { __invalid: raw }; } }
    return raw;
  }

  function showProblems(form, problems, general) {
    form.querySelectorAll('.error').forEach(function (p) { p.textContent = ''; });
    form.querySelectorAll('[aria-invalid]').forEach(function (i) { i.removeAttribute('aria-invalid'); });
    var first = null;
    Object.keys(problems).forEach(function (name) {
      var box = form.querySelector('[data-field="' + name + '"]');
      if (!box) { general.push(name + ': ' + problems[name]); return; }
      box.querySelector('.error').textContent = problems[name];
      var input = box.querySelector('[name]'); input.setAttribute('aria-invalid', 'true'); if (!first) first = input;
    });
    var status = form.querySelector('.form-status');
    status.textContent = general.join(' ');
    status.className = 'form-status error';
    if (first) first.focus();
  }

  // The service's refusal at the field its message names ('field' or field.path), else above the button.
  function refusal(form, schema, answer) {
    var message = (answer.error && answer.error.message) || ('The service answered ' + answer.status + '.');
    var names = Object.keys(deref(schema).properties || {}).filter(function (n) { return n !== 'guild_id'; });
    var hit = names.filter(function (n) { return new RegExp("(^|[^A-Za-z0-9_])'?" + n + "(?![A-Za-z0-9_])").test(message); })
      .sort(function (a, b) { return message.indexOf(a) - message.indexOf(b); })[0];
    var problems = {};
    if (hit) problems[hit] = message;
    showProblems(form, problems, hit ? [] : [message]);
  }

  // A form for a request body: every property but guild_id, checked by the document's rules, then sent.
  function bodyForm(label, schema, values, submitText, send, done) {
    var s = deref(schema), required = s.required || [];
    var fields = Object.keys(s.properties || {}).filter(function (n) { return n !== 'guild_id'; });
    var form = el('form', { novalidate: true }, [el('fieldset', {}, [el('legend', { text: label })].concat(fields.map(function (n) { return field(n, s.properties[n], values[n], required.indexOf(n) >= 0); })))]);
    form.appendChild(el('p', { class: 'form-status', role: 'status' }));
    form.appendChild(el('button', { type: 'submit', text: submitText }));
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var body = { guild_id: guildId };
      fields.forEach(function (n) { var v = valueOf(form.querySelector('[data-field="' + n + '"] [name]')); if (v !== undefined) body[n] = v; });
      var problems = check(s, body);
      fields.forEach(function (n) { if (body[n] && body[n].__invalid !== undefined) problems[n] = 'Not valid JSON.'; });
      if (Object.keys(problems).length) return showProblems(form, problems, ['Fix the fields marked below.']);
      send(body).then(function (answer) {
        if (!answer.ok) return refusal(form, s, answer);
        showProblems(form, {}, []);
        var status = form.querySelector('.form-status'); status.textContent = 'Saved.'; status.className = 'form-status ok';
        if (done) done(answer);
      });
    });
    return form;
  }

  function renderState(section, module, changed) {
    var box = el('div', { class: 'state-box' });
    section.appendChild(box);
    function draw() {
      return api('GET', '/modules/' + module + '/status', { guild_id: guildId }).then(function (a) {
        box.textContent = '';
        if (!a.ok) return box.appendChild(el('p', { class: 'error', text: a.error ? a.error.message : 'Could not read the state.' }));
        var on = a.data.status === true;
        section.setAttribute('data-enabled', on ? 'true' : 'false');
        box.appendChild(el('p', {}, [el('span', { class: 'state', text: on ? 'Enabled' : 'Disabled' })]));
        box.appendChild(el('button', { type: 'button', class: on ? 'secondary' : null, text: on ? 'Disable' : 'Enable', onclick: function () {
          api('POST', '/modules/' + module + (on ? '/disable' : '/enable'), {}, { guild_id: guildId }).then(function (r) {
            if (!r.ok && r.status !== 409) box.appendChild(el('p', { class: 'error', role: 'alert', text: r.error ? r.error.message : 'Failed.' }));
            else draw().then(changed);
          });
        } }));
      });
    }
    draw();
  }

  function renderSettings(section, module) {
    var path = '/modules/' + module + '/settings', put = op(path, 'put');
    if (!put) return;
    var box = el('div', {}, [el('h3', { text: 'Settings' })]);
    section.appendChild(box);
    api('GET', path, { guild_id: guildId }).then(function (a) {
      var values = a.ok ? a.data.settings || {} : {};
      box.appendChild(bodyForm('Settings of ' + module, bodySchema(put), values, 'Save settings', function (body) { return api('PUT', path, {}, body); }));
    });
  }

  // A list route: a GET answering an array (beside paging); null for any other GET.
  function listOf(path) {
    var get = op(path, 'get');
    if (!get) return null;
    var props = dataSchema(get).properties || {};
    var listName = Object.keys(props).filter(function (k) { return types(deref(props[k])).indexOf('array') >= 0; })[0];
    if (!listName) return null;
    var itemSchema = deref(deref(props[listName]).items);
    // Items that wrap their record beside related ones (a tag: { entry, entry_names }) are shown as the record.
    var wrapper = itemSchema.properties && itemSchema.properties.entry && types(deref(itemSchema.properties.entry)).indexOf('object') >= 0 ? 'entry' : null;
    if (wrapper) itemSchema = deref(itemSchema.properties.entry);
    var query = (get.parameters || []).filter(function (p) { return p.in === 'query'; });
    var names = query.map(function (p) { return p.name; });
    return {
      path: path, listName: listName, itemSchema: itemSchema, wrapper: wrapper, paged: !!props.next_cursor, create: op(path, 'post'),
      size: names.indexOf('page_size') >= 0 ? 'page_size' : names.indexOf('limit') >= 0 ? 'limit' : null,
      // Required query parameters besides the guild (the invite tracker's uses name their inviter): asked for before reading.
      filters: query.filter(function (p) { return p.required && p.name !== 'guild_id'; }),
    };
  }

  // The path that edits and deletes one item of a list, and the item field its last parameter names: the list's own
  // path with one parameter more, else (a list of the module itself) a path of the module ending with its only parameter.
  function itemOf(list, module) {
    var prefix = '/modules/' + module + '/', all = Object.keys(doc.paths), item = null;
    var editable = function (p) { return op(p, 'put') || op(p, 'delete'); };
    var own = all.filter(function (p) { return p.indexOf(list.path + '/') === 0 && /^\{[a-z_]+\}$/.test(p.slice(list.path.length + 1)) && editable(p); });
    var candidates = own.length || list.path.indexOf('{') >= 0 ? own : all.filter(function (p) { return p.indexOf(prefix) === 0 && /^[^{]*\{[a-z_]+\}$/.test(p) && editable(p); });
    candidates.some(function (p) {
      // Under the list's own path, the parameter is the item's own ID (tags/entries/{entry_id}: the tag's tag_id).
      var field = idField(p.match(/\{([a-z_]+)\}$/)[1], list.itemSchema) || (p.indexOf(list.path + '/') === 0 ? ownIdField(module, list.listName, list.itemSchema) : null);
      if (field) item = { path: p, field: field };
      return !!field;
    });
    return item;
  }

  // The lists under one item (a panel's entries, a poll's voters): GET routes one segment below the item's path.
  function childrenOf(itemPath) {
    return Object.keys(doc.paths).filter(function (p) { return p.indexOf(itemPath + '/') === 0 && /^[a-z_-]+$/.test(p.slice(itemPath.length + 1)); }).map(listOf).filter(Boolean);
  }

  // Every list of the module; what the bot records (an internal POST on the same path: server statistics) is read
  // by reports, not a list an admin edits.
  function renderLists(section, module) {
    var prefix = '/modules/' + module + '/';
    if (section.closest('section').getAttribute('data-enabled') !== 'true') {
      section.appendChild(el('p', { class: 'lists-off', text: 'Enable the module to see and change its lists.' }));
      return;
    }
    Object.keys(doc.paths).filter(function (p) { return p.indexOf(prefix) === 0 && p.indexOf('{') < 0 && !/\/(status|settings|diagnostics)$/.test(p); }).forEach(function (path) {
      var post = doc.paths[path].post;
      if (post && post['x-access'] === 'internal') return;
      var list = listOf(path);
      if (list) renderList(section, list, itemOf(list, module), {}, module);
    });
  }

  // The item field a path parameter names: itself, or the field it ends with (reactionrole_panel_id: panel_id).
  function idField(param, itemSchema) {
    var names = Object.keys(itemSchema.properties || {});
    if (names.indexOf(param) >= 0) return param;
    return names.filter(function (n) { return n !== 'id' && n !== 'guild_id' && param.slice(-n.length - 1) === '_' + n; }).sort(function (a, b) { return b.length - a.length; })[0] || null;
  }

  // A list item's own ID field: the module's or the list's name in the singular, then _id (the tags module's entries: tag_id).
  function ownIdField(module, listName, itemSchema) {
    var singular = function (name) { return name.replace(/ies$/, 'y').replace(/s$/, ''); };
    return [singular(module) + '_id', singular(listName) + '_id'].filter(function (name) { return (itemSchema.properties || {})[name]; })[0] || null;
  }

  // A list without item paths whose own DELETE names the item by fields of its body (socials: the feed's URL): those fields, else null.
  function removalFields(path, itemSchema) {
    var del = op(path, 'delete');
    if (!del || !del.requestBody) return null;
    var fields = (bodySchema(del).required || []).filter(function (n) { return n !== 'guild_id'; });
    return fields.length && fields.every(function (f) { return (itemSchema.properties || {})[f]; }) ? fields : null;
  }

  // A path template with its parameters given: those of the items above (bound), the last one this item's ID.
  function fillPath(template, bound, last) {
    return template.replace(/\{([a-z_]+)\}/g, function (m, name) { return encodeURIComponent(Object.prototype.hasOwnProperty.call(bound, name) ? bound[name] : last); });
  }

  // One list: a table of a page of items (with Next page where the API pages), Create, and per row Edit, Delete and
  // the lists under the item. bound holds the path parameters taken from the rows above (a panel's ID for its entries).
  function renderList(container, list, item, bound, module) {
    var path = fillPath(list.path, bound), itemPath = item ? item.path : null, idKey = item ? item.field : null, itemSchema = list.itemSchema, listName = list.listName;
    var nested = Object.keys(bound).length > 0, title = listName.replace(/_/g, ' ');
    var box = el('div', { class: 'list', 'data-list': list.path }, [el(nested ? 'h4' : 'h3', { text: title })]);
    var tableBox = el('div'), pager = el('p'), filterValues = null;
    container.appendChild(box);
    var removal = itemPath ? null : removalFields(list.path, itemSchema), children = itemPath ? childrenOf(itemPath) : [];
    var hasActions = !!(itemPath || removal);
    var props = itemSchema.properties || {};
    // A row shows its plain fields and lists of plain values, not the ID of the item above it (every row's would be the same).
    var above = Object.keys(bound).map(function (name) { return idField(name, itemSchema); });
    var columns = Object.keys(props).filter(function (k) {
      var s = deref(props[k]), t = types(s);
      if (k === 'guild_id' || above.indexOf(k) >= 0 || t.indexOf('object') >= 0) return false;
      return t.indexOf('array') < 0 || types(deref(s.items)).every(function (x) { return x !== 'object' && x !== 'array'; });
    });
    // What names a row comes first: the fields its removal sends (a feed's URL, a community).
    columns = (removal || []).concat(columns.filter(function (c) { return !removal || removal.indexOf(c) < 0; })).slice(0, 6);
    if (list.filters.length) box.appendChild(filterForm());
    box.appendChild(tableBox); box.appendChild(pager);
    function filterForm() {
      var schema = { type: 'object', required: [], properties: {} };
      list.filters.forEach(function (p) { schema.required.push(p.name); schema.properties[p.name] = Object.assign({ description: p.description }, deref(p.schema)); });
      var form = el('form', { class: 'filters', novalidate: true, 'aria-label': 'Which ' + title }, list.filters.map(function (p) { return field(p.name, schema.properties[p.name], undefined, true); }));
      form.appendChild(el('p', { class: 'form-status', role: 'status' }));
      form.appendChild(el('button', { type: 'submit', text: 'Show' }));
      form.addEventListener('submit', function (event) {
        event.preventDefault();
        var values = {};
        list.filters.forEach(function (p) { var v = valueOf(form.querySelector('[data-field="' + p.name + '"] [name]')); if (v !== undefined && v !== null) values[p.name] = v; });
        var problems = check(schema, values);
        if (Object.keys(problems).length) return showProblems(form, problems, []);
        showProblems(form, {}, []);
        filterValues = values;
        load(null);
      });
      return form;
    }
    function load(cursor) {
      tableBox.textContent = ''; pager.textContent = '';
      if (list.filters.length && !filterValues) {
        return tableBox.appendChild(el('p', { text: 'Fill in ' + list.filters.map(function (p) { return p.name.replace(/_/g, ' '); }).join(', ') + ' and choose Show.' }));
      }
      var query = Object.assign({ guild_id: guildId }, filterValues || {});
      if (list.size) query[list.size] = '10';
      if (cursor) query.cursor = cursor;
      api('GET', path, query).then(function (a) {
        tableBox.textContent = ''; pager.textContent = '';
        if (!a.ok) return tableBox.appendChild(el('p', { class: 'error', text: a.error ? a.error.message : 'Could not read the list.' }));
        var items = (a.data[listName] || []).map(function (i) { return list.wrapper ? i[list.wrapper] : i; });
        if (!items.length) return tableBox.appendChild(el('p', { text: 'None yet.' }));
        var head = el('tr', {}, columns.map(function (c) { return el('th', { scope: 'col', text: c.replace(/_/g, ' ') }); }).concat(hasActions ? [el('th', { scope: 'col', text: 'Actions' })] : []));
        var rows = items.map(function (item) {
          var cells = columns.map(function (c) { var v = item[c]; return el('td', { text: v === null || v === undefined ? '' : Array.isArray(v) ? v.join(', ') : String(v) }); });
          if (hasActions) cells.push(el('td', {}, itemPath ? actions(item) : removeAction(item)));
          return el('tr', { 'data-item': itemPath ? String(item[idKey]) : null }, cells);
        });
        tableBox.appendChild(el('table', {}, [el('caption', { class: 'skip', text: title }), el('thead', {}, [head]), el('tbody', {}, rows)]));
        if (list.paged && a.data.next_cursor) pager.appendChild(el('button', { type: 'button', class: 'secondary', text: 'Next page', 'aria-label': 'Next page of ' + title, onclick: function () { load(a.data.next_cursor); } }));
        if (cursor) pager.appendChild(el('button', { type: 'button', class: 'secondary', text: 'First page', 'aria-label': 'First page of ' + title, onclick: function () { load(null); } }));
      });
    }
    function actions(item) {
      var id = String(item[idKey]), target = fillPath(itemPath, bound, id), out = [];
      var edit = op(itemPath, 'put'), del = op(itemPath, 'delete');
      if (edit) out.push(el('button', { type: 'button', class: 'secondary', text: 'Edit', 'aria-label': 'Edit ' + id, onclick: function (event) {
        var row = event.target.closest('tr'), form = bodyForm('Edit ' + id, bodySchema(edit), item, 'Save', function (body) { return api('PUT', target, {}, body); }, function () { load(null); });
        row.parentNode.insertBefore(el('tr', {}, [el('td', { colspan: String(columns.length + 1) }, [form])]), row.nextSibling);
        form.querySelector('[name]').focus();
      } }));
      if (del) out.push(el('button', { type: 'button', class: 'danger', text: 'Delete', 'aria-label': 'Delete ' + id, onclick: function () {
        if (!window.confirm('Delete ' + id + '?')) return;
        var hasBody = !!del.requestBody;
        api('DELETE', target, hasBody ? {} : { guild_id: guildId }, hasBody ? { guild_id: guildId } : undefined).then(function () { load(null); });
      } }));
      children.forEach(function (child) {
        var childTitle = child.listName.replace(/_/g, ' '), shown = null;
        var childBound = Object.assign({}, bound);
        childBound[itemPath.match(/\{([a-z_]+)\}$/)[1]] = id;
        out.push(el('button', { type: 'button', class: 'secondary', text: childTitle.charAt(0).toUpperCase() + childTitle.slice(1), 'aria-label': childTitle + ' of ' + id, 'aria-expanded': 'false', onclick: function (event) {
          var button = event.target;
          if (shown) { shown.remove(); shown = null; button.setAttribute('aria-expanded', 'false'); return; }
          var cell = el('td', { colspan: String(columns.length + 1) });
          shown = el('tr', { class: 'nested' }, [cell]);
          var row = button.closest('tr');
          row.parentNode.insertBefore(shown, row.nextSibling);
          button.setAttribute('aria-expanded', 'true');
          renderList(cell, child, itemOf(child, module), childBound, module);
        } }));
      });
      return out;
    }
    function removeAction(item) {
      var label = removal.map(function (f) { return String(item[f]); }).join(' ');
      return [el('button', { type: 'button', class: 'danger', text: 'Delete', 'aria-label': 'Delete ' + label, onclick: function () {
        if (!window.confirm('Delete ' + label + '?')) return;
        var body = { guild_id: guildId };
        removal.forEach(function (f) { body[f] = item[f]; });
        api('DELETE', path, {}, body).then(function () { load(null); });
      } })];
    }
    if (list.create) {
      var details = el('details', { class: 'create' }, [el('summary', { text: nested ? 'Add to ' + title : 'Create' })]);
      details.appendChild(bodyForm('New ' + title, bodySchema(list.create), {}, 'Create', function (body) { return api('POST', path, {}, body); }, function () { load(null); }));
      box.appendChild(details);
    }
    load(null);
  }

  function renderDiagnostics(section, module) {
    var path = '/modules/' + module + '/diagnostics';
    if (!op(path, 'get')) return;
    var box = el('div', {}, [el('h3', { text: 'Diagnostics' })]);
    section.appendChild(box);
    box.appendChild(el('button', { type: 'button', class: 'secondary', text: 'Check what would stop it working', onclick: function () {
      api('GET', path, { guild_id: guildId }).then(function (a) {
        var old = box.querySelector('.diag'); if (old) old.remove();
        var out = el('div', { class: 'diag', role: 'status' });
        if (!a.ok) out.appendChild(el('p', { class: 'error', text: a.error ? a.error.message : 'Could not check.' }));
        else if (!a.data.problems.length) out.appendChild(el('p', { class: 'ok', text: 'Nothing wrong found.' }));
        else out.appendChild(el('ul', {}, a.data.problems.map(function (p) { return el('li', { text: p.message }); })));
        box.appendChild(out);
      });
    } }));
  }

  fetch(base + '/openapi.json').then(function (r) { return r.json(); }).then(function (d) {
    doc = d;
    // Each module's state at once; its settings, lists and diagnostics when the admin opens them (a few requests, not dozens).
    document.querySelectorAll('section[data-module]').forEach(function (section) {
      var module = section.getAttribute('data-module');
      section.querySelector('.loading').remove();
      var more = el('details', { class: 'more' }, [el('summary', { text: 'Settings, lists and diagnostics' })]);
      var body = el('div');
      more.appendChild(body);
      function fill() {
        body.textContent = '';
        renderSettings(body, module);
        renderLists(body, module);
        renderDiagnostics(body, module);
      }
      more.addEventListener('toggle', function () { if (more.open && !body.hasChildNodes()) fill(); });
      renderState(section, module, function () { if (more.open) fill(); else body.textContent = ''; });
      section.appendChild(more);
    });
  });
})();
`;

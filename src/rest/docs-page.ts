import { createHash } from 'node:crypto';
import type { OpenApiDocument } from './openapi.js';

// A self-contained API reference: the OpenAPI document is embedded in the page and rendered by
// the inline script below. No external asset is loaded, so it works offline; the page's
// Content-Security-Policy allows exactly this script and style (by hash) and nothing else.

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
:root{--ink:#1b2330;--muted:#5b6675;--line:#e3e7ee;--bg:#f5f7fb;--card:#fff;--brand:#2d5bd7;--head:#101826;--code:#0f172a}
html{scroll-padding-top:80px}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:var(--ink);background:var(--bg);overflow-wrap:anywhere}
a{color:var(--brand)}
header.top{position:sticky;top:0;z-index:10;display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;padding:10px 24px;background:var(--head);color:#fff;box-shadow:0 1px 0 rgba(0,0,0,.25)}
header.top h1{margin:0;font-size:18px;font-weight:650;letter-spacing:.2px;white-space:nowrap}
header.top .ver{font-size:12px;background:#263247;border-radius:999px;padding:2px 8px;margin-left:6px;color:#c9d4e5;font-weight:500}
header.top .links{display:flex;gap:14px;font-size:13px}header.top .links a{color:#c9d4e5;text-decoration:none}header.top .links a:hover{color:#fff}
.search{flex:1 1 260px;display:flex;align-items:center;gap:8px;max-width:480px;margin-left:auto}
.search input{width:100%;font:inherit;font-size:14px;padding:7px 12px;border-radius:8px;border:1px solid #33415a;background:#1a2436;color:#fff;outline:none}
.search input::placeholder{color:#8f9bb0}.search input:focus{border-color:#6d8ff0;box-shadow:0 0 0 3px rgba(109,143,240,.35)}
.count{font-size:12px;color:#aab6c9;white-space:nowrap}
.layout{display:grid;grid-template-columns:272px minmax(0,1fr);gap:0;max-width:1360px;margin:0 auto}
nav{position:sticky;top:57px;align-self:start;max-height:calc(100vh - 57px);overflow:auto;padding:16px 12px 24px 20px;border-right:1px solid var(--line)}
nav h3{margin:16px 0 6px;font-size:11px;letter-spacing:.08em;text-transform:uppercase;color:var(--muted)}
nav a{display:flex;gap:8px;align-items:baseline;color:var(--ink);text-decoration:none;padding:3px 6px;border-radius:6px;font-size:13px;line-height:1.35}
nav a:hover{background:#e9eef8}nav a .m{min-width:50px;flex:none;font-size:10px;padding:1px 4px}
nav a span:last-child{font-size:13px}
main{padding:20px 28px 64px;min-width:0}
.intro{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:16px 20px;margin-bottom:24px;color:var(--muted)}
.intro p{margin:4px 0}
h2.tag{font-size:20px;margin:32px 0 12px;text-transform:capitalize;scroll-margin-top:80px}
section.op{background:var(--card);border:1px solid var(--line);border-radius:12px;margin:0 0 16px;padding:16px 20px;scroll-margin-top:80px;box-shadow:0 1px 2px rgba(16,24,38,.04)}
section.op:target{outline:2px solid var(--brand);outline-offset:2px}
.ophead{display:flex;flex-wrap:wrap;align-items:center;gap:8px}
.ophead code{font-size:14px;font-weight:600;background:none;padding:0;word-break:break-all}
.summary{margin:8px 0 4px;font-weight:600}.desc{margin:4px 0;color:var(--muted)}
.m{white-space:nowrap;display:inline-block;min-width:60px;text-align:center;border-radius:6px;color:#fff;font-weight:700;font-size:11px;letter-spacing:.04em;padding:3px 6px;font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
.get{background:#2563eb}.post{background:#16a34a}.patch{background:#b45309}.put{background:#7c3aed}.delete{background:#dc2626}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
code{background:#eef1f6;border-radius:4px;padding:1px 4px}
pre{background:#f7f9fc;border:1px solid var(--line);padding:10px 12px;border-radius:8px;overflow:auto;margin:6px 0;max-width:100%;white-space:pre}
pre.curl{background:var(--code);color:#e2e8f0;border-color:var(--code)}
.tablewrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;margin:4px 0;font-size:13.5px;overflow-wrap:normal}table.params td:nth-child(-n+2){white-space:nowrap}table.params td:nth-child(3){min-width:140px}td,th{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}th{font-size:12px;color:var(--muted);font-weight:600}
h4{margin:14px 0 6px;font-size:12px;letter-spacing:.06em;text-transform:uppercase;color:var(--muted)}
.muted{color:var(--muted)}.meta{font-size:13px;color:var(--muted);margin:2px 0}
.scope{display:inline-block;background:#e8eefc;color:#23408f;border-radius:999px;padding:1px 8px;font-size:12px;margin:0 4px 2px 0}
.responses{display:flex;flex-direction:column;gap:4px}
.resp{display:flex;gap:8px;align-items:baseline;font-size:13.5px}
.st{display:inline-block;min-width:42px;text-align:center;border-radius:6px;font-weight:700;font-size:12px;padding:1px 6px;font-family:ui-monospace,Menlo,monospace}
.s2{background:#dcfce7;color:#166534}.s3{background:#e0e7ff;color:#3730a3}.s4{background:#fef3c7;color:#92400e}.s5{background:#fee2e2;color:#991b1b}
.schema-name{font-size:12px;color:var(--muted);margin-top:6px}
.empty{padding:24px;text-align:center;color:var(--muted)}
[hidden]{display:none!important}
@media (max-width:860px){
  .layout{display:block}
  nav{position:static;max-height:240px;border-right:0;border-bottom:1px solid var(--line);padding:8px 16px;background:var(--card)}
  main{padding:16px 12px 48px}
  header.top{padding:10px 12px}
  .search{flex-basis:100%;max-width:none;margin-left:0}
  section.op{padding:14px 14px}
  table.params tr:first-child{display:none}
  table.params tr{display:grid;grid-template-columns:auto 1fr;gap:2px 8px;padding:8px 0;border-bottom:1px solid var(--line)}
  table.params td{border:0;padding:0}
  table.params td:nth-child(2){color:var(--muted);font-size:12px;align-self:center}
  table.params td:nth-child(3),table.params td:nth-child(4){grid-column:1 / -1}
  table.params td:nth-child(4):empty{display:none}
  html{scroll-padding-top:120px}h2.tag,section.op{scroll-margin-top:120px}
}
`;

const SCRIPT = `
(function () {
  var doc = JSON.parse(document.getElementById('openapi').textContent);
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return node;
  }
  function resolve(obj) {
    var seen = 0;
    while (obj && obj.$ref && seen++ < 20) {
      obj = obj.$ref.replace(/^#\\//, '').split('/').reduce(function (o, k) { return o && o[k]; }, doc);
    }
    return obj || {};
  }
  function refName(s) { return s && s.$ref ? s.$ref.split('/').pop() : ''; }
  function typeName(s) {
    s = s || {};
    if (s.$ref) return refName(s);
    if (s.anyOf) return s.anyOf.map(typeName).join(' | ');
    if (s.oneOf) return s.oneOf.map(typeName).join(' | ');
    var t = Array.isArray(s.type) ? s.type.join(' | ') : (s.type || 'any');
    if (s.type === 'array' || (Array.isArray(s.type) && s.type[0] === 'array')) t = typeName(s.items) + '[]';
    if (s.format) t += ' (' + s.format + ')';
    if (s.enum) t += ': ' + s.enum.map(String).join(', ');
    var limits = [];
    if (s.minimum !== undefined) limits.push('≥ ' + s.minimum);
    if (s.maximum !== undefined) limits.push('≤ ' + s.maximum);
    if (s.minLength !== undefined) limits.push('min length ' + s.minLength);
    if (s.maxLength !== undefined) limits.push('max length ' + s.maxLength);
    if (s.default !== undefined) limits.push('default ' + s.default);
    if (limits.length) t += ' [' + limits.join(', ') + ']';
    return t;
  }
  function shape(s, depth, seen) {
    s = s || {};
    if (depth > 8) return '…';
    var pad = new Array(depth + 1).join('  ');
    if (s.$ref) {
      if (seen.indexOf(s.$ref) >= 0) return refName(s);
      return shape(resolve(s), depth, seen.concat([s.$ref]));
    }
    var variants = s.anyOf || s.oneOf;
    if (variants) {
      var real = variants.filter(function (v) { return v.type !== 'null'; });
      var suffix = real.length < variants.length ? ' | null' : '';
      return real.map(function (v) { return shape(v, depth, seen); }).join(' | ') + suffix;
    }
    var type = Array.isArray(s.type) ? s.type[0] : s.type;
    var orNull = Array.isArray(s.type) && s.type.indexOf('null') >= 0 ? ' | null' : '';
    if (type === 'array') return '[' + shape(s.items, depth, seen) + ']' + orNull;
    if (type === 'object' && s.properties) {
      var req = s.required || [];
      var lines = Object.keys(s.properties).map(function (k) {
        var p = s.properties[k];
        var note = p.description ? '  // ' + p.description.split('\\n')[0] : '';
        return pad + '  ' + k + (req.indexOf(k) >= 0 ? '' : '?') + ': ' + shape(p, depth + 1, seen) + note;
      });
      return '{\\n' + lines.join('\\n') + '\\n' + pad + '}' + orNull;
    }
    return typeName(s);
  }
  function schemaBlock(schema) {
    var wrap = el('div', {}, []);
    if (refName(schema)) wrap.appendChild(el('div', { class: 'schema-name' }, ['Schema ', el('code', {}, [refName(schema)])]));
    wrap.appendChild(el('pre', {}, [shape(schema, 0, [])]));
    return wrap;
  }
  // An example value of a schema, for the curl samples (examples, default, const, enum, format).
  function example(s, depth) {
    s = resolve(s);
    if (depth > 6) return null;
    if (s.examples && s.examples.length) return s.examples[0];
    if (s.default !== undefined) return s.default;
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum.filter(function (v) { return v !== null; })[0];
    var variants = s.anyOf || s.oneOf;
    if (variants) return example(variants.filter(function (v) { return v.type !== 'null'; })[0] || variants[0], depth + 1);
    var type = Array.isArray(s.type) ? s.type.filter(function (t) { return t !== 'null'; })[0] : s.type;
    if (type === 'string') {
      if (s.format === 'uuid') return '3f0c9a52-1d1e-4a57-9c43-7f1d1c2b9e10';
      if (s.format === 'date-time') return '2030-01-07T10:00:00Z';
      if (s.format === 'date') return '2030-01-07';
      if (s.format === 'email') return 'guest@example.com';
      if (s.format === 'uri') return 'https://example.com/hooks/portier';
      if (s.pattern && s.pattern.indexOf(':[0-5]') >= 0) return '18:00';
      return s.minLength && s.minLength > 8 ? 'a-string-of-16-chars' : 'string';
    }
    if (type === 'integer' || type === 'number') return s.minimum !== undefined ? Math.max(s.minimum, 1) : 1;
    if (type === 'boolean') return true;
    if (type === 'array') return [example(s.items, depth + 1)];
    if (type === 'object') {
      var out = {};
      var req = s.required || Object.keys(s.properties || {});
      req.forEach(function (k) { if (s.properties && s.properties[k]) out[k] = example(s.properties[k], depth + 1); });
      return out;
    }
    return null;
  }
  var server = (doc.servers && doc.servers[0] && doc.servers[0].url) || '';
  function curlSample(path, method, op) {
    var query = (op.parameters || []).filter(function (p) { return p.in === 'query' && p.required; })
      .map(function (p) { return p.name + '=' + encodeURIComponent(String(example(p.schema, 0))); });
    var target = server.replace(/\\/$/, '') + path + (query.length ? '?' + query.join('&') : '');
    var lines = ['curl -X ' + method.toUpperCase() + " '" + target + "'"];
    var schemes = (op.security || []).reduce(function (all, req) { return all.concat(Object.keys(req)); }, []);
    if (schemes.indexOf('apiKey') >= 0) lines.push("  -H 'Authorization: Bearer $PORTIER_API_KEY'");
    else if (schemes.indexOf('deviceKey') >= 0) lines.push("  -H 'Authorization: Bearer $PORTIER_DEVICE_KEY'");
    var body = op.requestBody && op.requestBody.content && op.requestBody.content['application/json'];
    if (body) {
      lines.push("  -H 'Content-Type: application/json'");
      lines.push("  -d '" + JSON.stringify(example(body.schema, 0), null, 2).replace(/'/g, "'\\\\''") + "'");
    }
    return lines.join(' \\\\\\n');
  }
  var nav = document.getElementById('nav');
  var main = document.getElementById('main');
  var byTag = {};
  var cards = [];
  Object.keys(doc.paths).forEach(function (path) {
    Object.keys(doc.paths[path]).forEach(function (method) {
      var op = doc.paths[path][method];
      (op.tags || ['api']).slice(0, 1).forEach(function (tag) { (byTag[tag] = byTag[tag] || []).push({ path: path, method: method, op: op }); });
    });
  });
  // The tenant API first, then devices and pricing, then the server's own pages.
  var ORDER = ['bookings', 'objects', 'webhooks', 'pricing-rules', 'cancellation-policies', 'pricing', 'devices', 'graphql', 'operations', 'oauth', 'dashboard'];
  function rank(tag) { var at = ORDER.indexOf(tag); return at < 0 ? ORDER.length : at; }
  Object.keys(byTag).sort(function (a, b) { return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0); }).forEach(function (tag) {
    var navHead = el('h3', {}, [tag]);
    var heading = el('h2', { id: 'tag-' + tag, class: 'tag' }, [tag]);
    nav.appendChild(navHead);
    main.appendChild(heading);
    var group = { nav: navHead, heading: heading, items: [] };
    byTag[tag].forEach(function (entry) {
      var op = entry.op;
      var link = el('a', { href: '#' + op.operationId, title: entry.method.toUpperCase() + ' ' + entry.path }, [el('span', { class: 'm ' + entry.method }, [entry.method.toUpperCase()]), el('span', {}, [op.summary || entry.path])]);
      nav.appendChild(link);
      var section = el('section', { class: 'op', id: op.operationId }, [
        el('div', { class: 'ophead' }, [el('span', { class: 'm ' + entry.method }, [entry.method.toUpperCase()]), el('code', {}, [entry.path])]),
        el('p', { class: 'summary' }, [op.summary || op.operationId]),
      ]);
      if (op.description) section.appendChild(el('p', { class: 'desc' }, [op.description]));
      section.appendChild(el('p', { class: 'meta' }, ['operationId ', el('code', {}, [op.operationId])]));
      var security = op.security || [];
      var auth = el('p', { class: 'meta' }, [security.length ? 'Auth: ' : 'Auth: none']);
      security.forEach(function (req, i) {
        Object.keys(req).forEach(function (scheme) {
          auth.appendChild(document.createTextNode((i ? ' or ' : '') + scheme + ' '));
          req[scheme].forEach(function (scope) { auth.appendChild(el('span', { class: 'scope' }, [scope])); });
        });
      });
      section.appendChild(auth);
      if (op.parameters && op.parameters.length) {
        section.appendChild(el('h4', {}, ['Parameters']));
        var table = el('table', { class: 'params' }, [el('tr', {}, [el('th', {}, ['name']), el('th', {}, ['in']), el('th', {}, ['type']), el('th', {}, ['description'])])]);
        op.parameters.forEach(function (p) {
          table.appendChild(el('tr', {}, [el('td', {}, [el('code', {}, [p.name + (p.required ? '' : '?')])]), el('td', {}, [p.in]), el('td', {}, [typeName(p.schema)]), el('td', {}, [p.description || ''])]));
        });
        section.appendChild(el('div', { class: 'tablewrap' }, [table]));
      }
      if (op.requestBody) {
        section.appendChild(el('h4', {}, ['Request body']));
        Object.keys(op.requestBody.content).forEach(function (type) { section.appendChild(schemaBlock(op.requestBody.content[type].schema)); });
      }
      section.appendChild(el('h4', {}, ['Example']));
      section.appendChild(el('pre', { class: 'curl', 'aria-label': 'curl sample' }, [curlSample(entry.path, entry.method, op)]));
      section.appendChild(el('h4', {}, ['Responses']));
      var list = el('div', { class: 'responses' }, []);
      Object.keys(op.responses).forEach(function (status) {
        var response = resolve(op.responses[status]);
        var types = Object.keys(response.content || {});
        list.appendChild(el('div', { class: 'resp' }, [el('span', { class: 'st s' + status.charAt(0) }, [status]), el('span', {}, [(response.description || '') + (types.length && status.charAt(0) !== '2' ? ' (' + types.join(', ') + ')' : '')])]));
        types.forEach(function (type) {
          if (status.charAt(0) === '2') {
            list.appendChild(el('div', { class: 'muted' }, [type]));
            list.appendChild(schemaBlock(response.content[type].schema));
          }
        });
      });
      section.appendChild(list);
      main.appendChild(section);
      var text = [entry.method, entry.path, op.operationId, op.summary || '', op.description || '', tag].join(' ').toLowerCase();
      group.items.push({ text: text, section: section, link: link });
    });
    cards.push(group);
  });
  if (doc.webhooks) {
    main.appendChild(el('h2', { id: 'webhooks', class: 'tag' }, ['Webhook events']));
    main.appendChild(el('p', { class: 'muted' }, ['Portier POSTs these to your subscription URL, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature).']));
    Object.keys(doc.webhooks).forEach(function (type) {
      var op = doc.webhooks[type].post;
      var body = op.requestBody.content['application/json'].schema;
      main.appendChild(el('section', { class: 'op webhook', id: 'event-' + type }, [
        el('div', { class: 'ophead' }, [el('span', { class: 'm post' }, ['EVENT']), el('code', {}, [type])]),
        el('p', { class: 'summary' }, [op.summary || '']),
        schemaBlock(body),
      ]));
    });
  }
  main.appendChild(el('h2', { id: 'problem', class: 'tag' }, ['Problem (error body)']));
  main.appendChild(schemaBlock({ $ref: '#/components/schemas/Problem' }));
  var empty = el('p', { class: 'empty', hidden: 'hidden' }, ['No operation matches.']);
  main.appendChild(empty);
  var search = document.getElementById('search');
  var count = document.getElementById('count');
  function filter() {
    var words = String(search.value || '').toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    cards.forEach(function (group) {
      var any = false;
      group.items.forEach(function (item) {
        var match = words.every(function (w) { return item.text.indexOf(w) >= 0; });
        item.section.hidden = !match;
        item.link.hidden = !match;
        if (match) { any = true; shown += 1; }
      });
      group.nav.hidden = !any;
      group.heading.hidden = !any;
    });
    empty.hidden = shown > 0;
    if (count) count.textContent = words.length ? shown + ' of ' + total + ' operations' : total + ' operations';
  }
  var total = cards.reduce(function (n, g) { return n + g.items.length; }, 0);
  if (search && search.addEventListener) {
    search.addEventListener('input', filter);
    filter();
  }
})();
`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Allows the page's own inline script and style, nothing else (no network, no frames). */
export const DOCS_PAGE_CSP = `default-src 'none'; script-src ${hash(SCRIPT)}; style-src ${hash(STYLE)}; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ENTITIES[c] ?? c);

export function renderDocsPage(document: OpenApiDocument): string {
  // Inside <script>, only "</" and "<!--" could end or confuse the element; escaping every "<" covers both.
  const json = JSON.stringify(document).replace(/</g, '\\u003c');
  const info = document.info as { title: string; version: string; description?: string };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} reference</title>
<style>${STYLE}</style>
</head>
<body>
<header class="top">
<h1>${escapeHtml(info.title)}<span class="ver">${escapeHtml(info.version)}</span></h1>
<div class="links"><a href="/api/openapi.json">openapi.json</a><a href="#webhooks">Webhook events</a><a href="#problem">Errors</a></div>
<div class="search"><input id="search" type="search" aria-label="Search operations" placeholder="Search operations (path, method, summary…)" autocomplete="off"><span class="count" id="count" aria-live="polite"></span></div>
</header>
<div class="layout">
<nav id="nav" aria-label="Operations"></nav>
<main id="main"><div class="intro"><p>${escapeHtml(info.description ?? '')}</p><p>The machine-readable document is <code>/api/openapi.json</code> (OpenAPI 3.1): generate a client from it (docs/openapi.md).</p></div><noscript>This page renders /api/openapi.json with a small inline script; without JavaScript, read that document directly.</noscript></main>
</div>
<script type="application/json" id="openapi">${json}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

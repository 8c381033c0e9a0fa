import { createHash } from 'node:crypto';
import type { OpenApiDocument } from './openapi.js';

// A self-contained API reference: the OpenAPI document is embedded in the page and rendered by
// the inline script below. No external asset is loaded, so it works offline; the page's
// Content-Security-Policy allows exactly this script and style (by hash) and nothing else.

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
header{background:#1d232a;color:#fff;padding:16px 24px}header h1{margin:0;font-size:20px}header p{margin:4px 0 0;color:#c9d1d9;max-width:960px}
nav{position:fixed;top:86px;bottom:0;left:0;width:260px;overflow:auto;padding:12px;border-right:1px solid #dde1e6;background:#fff;box-sizing:border-box}
nav a{display:block;color:#1d232a;text-decoration:none;padding:2px 0;font-size:13px;word-break:break-all}nav h3{margin:12px 0 4px;font-size:12px;text-transform:uppercase;color:#57606a}
main{margin-left:260px;padding:16px 24px;max-width:1000px}
section.op{background:#fff;border:1px solid #dde1e6;border-radius:6px;margin:0 0 16px;padding:12px 16px}
.m{display:inline-block;min-width:56px;text-align:center;border-radius:4px;color:#fff;font-weight:600;font-size:12px;padding:2px 6px;margin-right:8px}
.get{background:#1f6feb}.post{background:#2da44e}.patch{background:#bf8700}.put{background:#8250df}.delete{background:#cf222e}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}pre{background:#f6f8fa;padding:8px;border-radius:4px;overflow:auto;margin:4px 0}
table{border-collapse:collapse;width:100%;margin:4px 0}td,th{border-bottom:1px solid #eaeef2;padding:4px 6px;text-align:left;vertical-align:top}
h4{margin:10px 0 4px;font-size:13px}.muted{color:#57606a}.scope{background:#eaeef2;border-radius:10px;padding:1px 8px;font-size:12px;margin-right:4px}
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
  function typeName(s) {
    s = s || {};
    if (s.$ref) return s.$ref.split('/').pop();
    if (s.anyOf) return s.anyOf.map(typeName).join(' | ');
    if (s.oneOf) return s.oneOf.map(typeName).join(' | ');
    var t = Array.isArray(s.type) ? s.type.join(' | ') : (s.type || 'any');
    if (s.type === 'array' || (Array.isArray(s.type) && s.type[0] === 'array')) t = typeName(s.items) + '[]';
    if (s.format) t += ' (' + s.format + ')';
    if (s.enum) t += ': ' + s.enum.map(String).join(', ');
    return t;
  }
  function shape(s, depth, seen) {
    s = s || {};
    if (depth > 8) return '…';
    var pad = new Array(depth + 1).join('  ');
    if (s.$ref) {
      if (seen.indexOf(s.$ref) >= 0) return s.$ref.split('/').pop();
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
  function schemaBlock(schema) { return el('pre', {}, [shape(schema, 0, [])]); }
  var nav = document.getElementById('nav');
  var main = document.getElementById('main');
  var byTag = {};
  Object.keys(doc.paths).forEach(function (path) {
    Object.keys(doc.paths[path]).forEach(function (method) {
      var op = doc.paths[path][method];
      (op.tags || ['api']).slice(0, 1).forEach(function (tag) { (byTag[tag] = byTag[tag] || []).push({ path: path, method: method, op: op }); });
    });
  });
  Object.keys(byTag).sort().forEach(function (tag) {
    nav.appendChild(el('h3', {}, [tag]));
    main.appendChild(el('h2', { id: 'tag-' + tag }, [tag]));
    byTag[tag].forEach(function (entry) {
      var op = entry.op;
      nav.appendChild(el('a', { href: '#' + op.operationId }, [entry.method.toUpperCase() + ' ' + entry.path]));
      var section = el('section', { class: 'op', id: op.operationId }, [
        el('div', {}, [el('span', { class: 'm ' + entry.method }, [entry.method.toUpperCase()]), el('code', {}, [entry.path])]),
        el('p', {}, [op.summary || '', op.description ? el('span', { class: 'muted' }, [' — ' + op.description]) : '']),
        el('p', { class: 'muted' }, ['operationId ', el('code', {}, [op.operationId])]),
      ]);
      var security = op.security || [];
      var auth = el('p', {}, [security.length ? 'Auth: ' : 'Auth: none']);
      security.forEach(function (req, i) {
        Object.keys(req).forEach(function (scheme) {
          auth.appendChild(document.createTextNode((i ? ' or ' : '') + scheme + ' '));
          req[scheme].forEach(function (scope) { auth.appendChild(el('span', { class: 'scope' }, [scope])); });
        });
      });
      section.appendChild(auth);
      if (op.parameters && op.parameters.length) {
        section.appendChild(el('h4', {}, ['Parameters']));
        var table = el('table', {}, [el('tr', {}, [el('th', {}, ['name']), el('th', {}, ['in']), el('th', {}, ['type']), el('th', {}, ['description'])])]);
        op.parameters.forEach(function (p) {
          table.appendChild(el('tr', {}, [el('td', {}, [el('code', {}, [p.name + (p.required ? '' : '?')])]), el('td', {}, [p.in]), el('td', {}, [typeName(p.schema)]), el('td', {}, [p.description || ''])]));
        });
        section.appendChild(table);
      }
      if (op.requestBody) {
        section.appendChild(el('h4', {}, ['Request body']));
        Object.keys(op.requestBody.content).forEach(function (type) { section.appendChild(schemaBlock(op.requestBody.content[type].schema)); });
      }
      section.appendChild(el('h4', {}, ['Responses']));
      Object.keys(op.responses).forEach(function (status) {
        var response = resolve(op.responses[status]);
        section.appendChild(el('div', {}, [el('strong', {}, [status + ' ']), response.description || '']));
        var content = response.content || {};
        Object.keys(content).forEach(function (type) {
          if (status.charAt(0) === '2') section.appendChild(el('div', { class: 'muted' }, [type]));
          if (status.charAt(0) === '2') section.appendChild(schemaBlock(content[type].schema));
        });
      });
      main.appendChild(section);
    });
  });
  main.appendChild(el('h2', {}, ['Problem (error body)']));
  main.appendChild(schemaBlock({ $ref: '#/components/schemas/Problem' }));
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
<header><h1>${escapeHtml(info.title)} ${escapeHtml(info.version)}</h1><p>${escapeHtml(info.description ?? '')} The machine-readable document is at <code>/api/openapi.json</code>.</p></header>
<nav id="nav"></nav>
<main id="main"><noscript>This page renders /api/openapi.json with a small inline script; without JavaScript, read that document directly.</noscript></main>
<script type="application/json" id="openapi">${json}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

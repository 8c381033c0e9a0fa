// The booking page's stylesheet and script, and the widget's loader, served by Portier itself
// (GET /book/assets/page.css, /book/assets/page.js, /widget.js): no other host, no bundle.
// The page works without the script; the script only fetches the free times and the price in
// place, shows the guest's own time zone, solves the form's proof of work and, in the widget,
// tells the embedding page its height.

export const PAGE_CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#111827;background:#f3f4f6}
body.embed{background:transparent}
a{color:var(--link)}
.skip{position:absolute;left:-10000px;top:0}
.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem 1rem;z-index:10;border-radius:.5rem}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:.75rem;max-width:40rem;margin:0 auto;padding:1.25rem 1rem .5rem}
.top h1{font-size:1.5rem;line-height:1.2;margin:0;flex:1 1 12rem}
.logo{height:3rem;width:auto;max-width:8rem;object-fit:contain}
.lang{display:flex;gap:.25rem}
.lang a{display:inline-block;padding:.5rem .75rem;min-height:44px;line-height:28px;border-radius:999px;text-decoration:none;color:#374151;font-size:.9rem}
.lang a[aria-current]{background:#fff;color:#111827;font-weight:600;box-shadow:0 0 0 1px #d1d5db}
main{max-width:40rem;margin:0 auto;padding:0 1rem 2rem}
.embed main{padding-bottom:1rem}
.intro{color:#374151}
.step{border:0;margin:0 0 1rem;padding:1rem;background:#fff;border-radius:1rem;box-shadow:0 1px 2px rgba(0,0,0,.06),0 0 0 1px #e5e7eb}
legend{padding:0;float:left;width:100%}
legend+*{clear:both}
.step h2{font-size:1.1rem;margin:0 0 .75rem}
.cards{display:grid;gap:.5rem}
.card{display:flex;gap:.75rem;align-items:flex-start;padding:.875rem;border:1px solid #d1d5db;border-radius:.75rem;cursor:pointer;background:#fff}
.card:has(input:checked){border-color:var(--accent);box-shadow:0 0 0 2px var(--accent)}
.card input{margin-top:.3rem;width:1.25rem;height:1.25rem;accent-color:var(--accent);flex:none}
.card-body{display:flex;flex-direction:column}
.card-title{font-weight:600}
.card-meta{color:#4b5563;font-size:.925rem}
.row{display:flex;flex-wrap:wrap;gap:.75rem}
.row .field{flex:1 1 10rem}
.field{margin-bottom:.75rem}
label{font-weight:600}
.field label{display:block;margin-bottom:.25rem}
input[type=date],input[type=text],input[type=email],input[type=tel],input:not([type]),select{width:100%;min-height:48px;padding:.625rem .75rem;font:inherit;color:inherit;background:#fff;border:1px solid #6b7280;border-radius:.625rem}
[aria-invalid=true]{border-color:#b91c1c;box-shadow:0 0 0 1px #b91c1c}
:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.hint{color:#4b5563;font-size:.925rem;margin:.25rem 0 0}
.error{color:#b91c1c;font-weight:600;margin:.25rem 0 0}
.slots{display:grid;grid-template-columns:repeat(auto-fill,minmax(8.25rem,1fr));gap:.5rem}
.slot .time{white-space:nowrap}
.slot{display:flex;align-items:center;gap:.5rem;min-height:48px;padding:.5rem .75rem;border:1px solid #d1d5db;border-radius:.625rem;cursor:pointer;font-weight:500;font-variant-numeric:tabular-nums}
.slot:has(input:checked){border-color:var(--accent);box-shadow:0 0 0 2px var(--accent)}
.slot input{accent-color:var(--accent);width:1.1rem;height:1.1rem;flex:none}
.slot .guest-time{display:block;color:#4b5563;font-size:.8rem;font-weight:400}
.empty{color:#374151;margin:0}
.quote{margin:0 0 1rem;padding:1rem;background:#fff;border-radius:1rem;box-shadow:0 0 0 1px #e5e7eb}
.quote .when{font-weight:600;margin:0 0 .5rem}
.quote dl{margin:0}
.line{display:flex;justify-content:space-between;gap:1rem;padding:.25rem 0}
.line dt{color:#374151}.line dd{margin:0;font-variant-numeric:tabular-nums}
.line.total{border-top:1px solid #e5e7eb;margin-top:.25rem;padding-top:.5rem;font-weight:700;font-size:1.1rem}
.line.total dt{color:#111827}
.quote>.hint:only-child{margin:0}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.check{display:flex;gap:.625rem;align-items:flex-start;padding:.5rem 0;min-height:44px;font-weight:500}
.check input{width:1.25rem;height:1.25rem;margin-top:.15rem;accent-color:var(--accent);flex:none}
.policy{margin:0 0 .5rem;padding-left:1.25rem;color:#374151}
.venue-text{color:#374151}
button{font:inherit;cursor:pointer}
.primary{width:100%;min-height:52px;padding:.75rem 1rem;border:0;border-radius:.75rem;background:var(--accent);color:var(--on-accent);font-weight:700;font-size:1.1rem}
.primary[aria-busy=true]{opacity:.8;cursor:progress}
.secondary{min-height:44px;margin-top:.75rem;padding:.5rem 1rem;border:1px solid #6b7280;border-radius:.625rem;background:#fff;color:#111827;font-weight:600}
.js .no-js{display:none}
.summary{margin:0 0 1rem;padding:1rem;border-radius:1rem;background:#fef2f2;box-shadow:0 0 0 2px #b91c1c;color:#7f1d1d}
.summary h2{font-size:1.05rem;margin:0}
.summary ul{margin:.5rem 0 0;padding-left:1.25rem}
.summary a{color:#7f1d1d}
.pay-note{margin:0 0 1rem}
.foot{max-width:40rem;margin:0 auto;padding:0 1rem 2rem;color:#4b5563;font-size:.85rem;text-align:center}
.embed .foot{padding-bottom:.5rem}
.message{padding-top:3rem}
@media (min-width:48rem){.top{padding-top:2rem}}
`;

export const PAGE_JS = `(function () {
  'use strict';
  var root = document.documentElement;
  root.classList.add('js');
  var form = document.getElementById('booking');
  var summary = document.getElementById('errors');
  if (summary) summary.focus();
  if (!form) return;
  var slug = form.getAttribute('data-slug');
  var lang = form.getAttribute('data-lang');
  var embed = form.getAttribute('data-embed') === '1';

  // The guest's own time zone beside the venue's, when they differ.
  function showGuestZone() {
    var note = form.querySelector('.guest-zone');
    if (!note || typeof Intl === 'undefined') return;
    var guestZone;
    try { guestZone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
    var venueZone = note.getAttribute('data-venue-zone');
    if (!guestZone || guestZone === venueZone) return;
    var format = new Intl.DateTimeFormat(note.getAttribute('data-locale') || undefined, { hour: '2-digit', minute: '2-digit', timeZone: guestZone });
    note.textContent = note.getAttribute('data-template').replace('{zone}', guestZone);
    note.hidden = false;
    var inputs = form.querySelectorAll('input[name=start]');
    for (var i = 0; i < inputs.length; i++) {
      var span = inputs[i].nextElementSibling;
      if (!span || span.querySelector('.guest-time')) continue;
      var local = document.createElement('span');
      local.className = 'guest-time';
      local.textContent = format.format(new Date(inputs[i].value)) + '–' + format.format(new Date(inputs[i].getAttribute('data-end')));
      span.appendChild(local);
    }
  }

  function value(name) {
    var field = form.elements.namedItem(name);
    if (!field) return '';
    if (field instanceof RadioNodeList) return field.value;
    return field.value || '';
  }

  var pending = 0;
  function refresh(withStart) {
    var query = new URLSearchParams({ lang: lang, object: value('object'), date: value('date'), duration: value('duration') });
    if (withStart) query.set('start', value('start'));
    var ticket = ++pending;
    fetch('/book/' + encodeURIComponent(slug) + '/choice?' + query.toString(), { headers: { accept: 'application/json' }, credentials: 'omit' })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (data) {
        if (!data || ticket !== pending) return;
        var date = form.querySelector('#date');
        if (date) { date.min = data.dateMin; date.max = data.dateMax; if (date.value !== data.date) date.value = data.date; }
        var duration = form.querySelector('#duration');
        if (duration && data.durationsHtml !== undefined) duration.innerHTML = data.durationsHtml;
        if (!withStart) replace('start', data.slotsHtml);
        replace('quote', data.quoteHtml);
        showGuestZone();
        resize();
      })
      .catch(function () { /* the buttons still work without the script's help */ });
  }
  function replace(id, html) {
    var old = document.getElementById(id);
    if (!old || html === undefined) return;
    var holder = document.createElement('div');
    holder.innerHTML = html;
    var next = holder.firstElementChild;
    if (next) old.replaceWith(next);
  }
  form.addEventListener('change', function (event) {
    var name = event.target && event.target.name;
    if (name === 'object' || name === 'date' || name === 'duration') refresh(false);
    else if (name === 'start') refresh(true);
    else if (name === 'pay') {
      var button = form.querySelector('button[value=book]');
      if (button && button.getAttribute('data-label-' + event.target.value)) button.textContent = button.getAttribute('data-label-' + event.target.value);
    }
  });

  // Proof of work: SHA-256(challenge + ':' + nonce) must start with the challenge's number of zero bits.
  var challenge = form.elements.namedItem('challenge');
  var nonceField = form.elements.namedItem('nonce');
  var solved = null;
  function zeroBits(bytes) {
    var bits = 0;
    for (var i = 0; i < bytes.length; i++) {
      if (bytes[i] === 0) { bits += 8; continue; }
      return bits + Math.clz32(bytes[i]) - 24;
    }
    return bits;
  }
  if (challenge && nonceField && window.crypto && crypto.subtle && window.TextEncoder) {
    var token = challenge.value;
    var need = Number(token.split('.')[3] || 0);
    var encoder = new TextEncoder();
    solved = new Promise(function (resolve) {
      var n = 0;
      function batch() {
        var work = [];
        for (var k = 0; k < 256; k++) work.push(crypto.subtle.digest('SHA-256', encoder.encode(token + ':' + (n + k))));
        Promise.all(work).then(function (digests) {
          for (var k = 0; k < digests.length; k++) {
            if (zeroBits(new Uint8Array(digests[k])) >= need) { nonceField.value = String(n + k); resolve(); return; }
          }
          n += digests.length;
          setTimeout(batch, 0);
        });
      }
      batch();
    });
  }
  form.addEventListener('submit', function (event) {
    var submitter = event.submitter;
    if (!submitter || submitter.value !== 'book' || !solved || nonceField.value) return;
    event.preventDefault();
    submitter.setAttribute('aria-busy', 'true');
    var status = document.getElementById('pow-status');
    if (status) status.textContent = submitter.getAttribute('data-working');
    solved.then(function () { submitter.removeAttribute('aria-busy'); form.requestSubmit(submitter); });
  });

  // In the widget: tell the embedding page (one of the venue's allowed origins) how tall the page is.
  var parentOrigin = null;
  if (embed && window.parent !== window) {
    var allowed = (form.getAttribute('data-origins') || '').split(' ').filter(Boolean);
    var ancestor = location.ancestorOrigins && location.ancestorOrigins.length ? location.ancestorOrigins[0] : null;
    if (!ancestor && document.referrer) { try { ancestor = new URL(document.referrer).origin; } catch (e) { ancestor = null; } }
    if (ancestor && allowed.indexOf(ancestor) >= 0) parentOrigin = ancestor;
  }
  function resize() {
    if (!parentOrigin) return;
    window.parent.postMessage({ type: 'portier:height', height: document.documentElement.scrollHeight }, parentOrigin);
  }
  if (parentOrigin) {
    if (window.ResizeObserver) new ResizeObserver(resize).observe(document.body);
    window.addEventListener('load', resize);
    resize();
  }
  showGuestZone();
})();
`;

export const WIDGET_JS = `(function () {
  'use strict';
  // <script src="https://portier.example/widget.js" data-venue="your-slug" async></script>
  // puts the venue's booking page in an iframe right after the script tag and keeps it as tall as
  // its content. Optional: data-lang="en|de", data-title (the frame's accessible name).
  var script = document.currentScript;
  if (!script) return;
  var slug = script.getAttribute('data-venue') || '';
  if (!/^[a-z0-9-]{1,48}$/.test(slug)) return;
  var origin = new URL(script.src, location.href).origin;
  var src = origin + '/book/' + slug + '?embed=1';
  var lang = script.getAttribute('data-lang');
  if (lang === 'en' || lang === 'de') src += '&lang=' + lang;
  var frame = document.createElement('iframe');
  frame.src = src;
  frame.title = script.getAttribute('data-title') || 'Online booking';
  frame.setAttribute('data-portier-widget', slug);
  frame.style.cssText = 'display:block;width:100%;max-width:42rem;height:1100px;border:0;overflow:hidden';
  script.parentNode.insertBefore(frame, script.nextSibling);
  window.addEventListener('message', function (event) {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    var data = event.data;
    if (!data || data.type !== 'portier:height' || typeof data.height !== 'number') return;
    if (data.height > 0 && data.height < 20000) frame.style.height = Math.ceil(data.height) + 'px';
  });
})();
`;

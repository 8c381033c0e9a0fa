// Server-rendered pages of the authorization flow: self-contained HTML (inline styles, nothing
// loaded from another host), every interpolated value escaped.

export function escapeHtml(value: unknown): string {
  return String(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f3f4f6;color:#111827;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;max-width:26rem;margin:2rem 1rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.1),0 8px 24px rgba(0,0,0,.06);padding:2rem}
.brand{font-weight:700;letter-spacing:.02em;color:#4338ca;margin:0 0 1rem}
h1{font-size:1.35rem;margin:0 0 .5rem}
p{margin:.5rem 0}
.muted{color:#4b5563;font-size:.95rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input[type=email],input[type=password]{width:100%;padding:.6rem .75rem;border:1px solid #9ca3af;border-radius:8px;font:inherit}
input:focus,button:focus{outline:3px solid #a5b4fc;outline-offset:1px}
ul.scopes{list-style:none;padding:0;margin:1rem 0}
ul.scopes li{padding:.6rem .75rem;border:1px solid #e5e7eb;border-radius:8px;margin:.4rem 0}
ul.scopes code{display:block;color:#6b7280;font-size:.8rem}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{flex:1;padding:.65rem 1rem;border-radius:8px;border:1px solid transparent;font:inherit;font-weight:600;cursor:pointer}
button.primary{background:#4338ca;color:#fff}
button.primary:hover{background:#3730a3}
button.secondary{background:#fff;color:#111827;border-color:#9ca3af}
.error{background:#fef2f2;color:#991b1b;border:1px solid #fecaca;border-radius:8px;padding:.6rem .75rem;margin:1rem 0}
`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)} · Portier</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">Portier</p>
${body}
</main>
</body>
</html>`;
}

export interface AppView {
  name: string;
  ownerTenantName: string;
}

export function signInPage(input: {
  app: AppView;
  action: string;
  csrfToken: string;
  email?: string;
  error?: string;
}): string {
  return page(
    'Sign in',
    `<h1>Sign in to continue</h1>
<p class="muted"><strong>${escapeHtml(input.app.name)}</strong> (registered by ${escapeHtml(input.app.ownerTenantName)}) asks to use your Portier account.</p>
${input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrfToken)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>`,
  );
}

export function consentPage(input: {
  app: AppView;
  userEmail: string;
  tenantName: string;
  scopes: { scope: string; words: string }[];
  action: string;
  csrfToken: string;
}): string {
  const items = input.scopes
    .map((s) => `<li>${escapeHtml(s.words)}<code>${escapeHtml(s.scope)}</code></li>`)
    .join('\n');
  return page(
    `Authorize ${input.app.name}`,
    `<h1>Allow ${escapeHtml(input.app.name)} to act for ${escapeHtml(input.tenantName)}?</h1>
<p class="muted">${escapeHtml(input.app.name)} is registered by <strong>${escapeHtml(input.app.ownerTenantName)}</strong>. You are signed in as ${escapeHtml(input.userEmail)}.</p>
<p>It will be able to:</p>
<ul class="scopes">
${items}
</ul>
<p class="muted">You can disconnect it at any time under Admin → Connected apps.</p>
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrfToken)}">
<div class="actions">
<button class="secondary" type="submit" name="decision" value="deny">Deny</button>
<button class="primary" type="submit" name="decision" value="allow">Allow</button>
</div>
</form>`,
  );
}

export function errorPage(input: { title: string; error?: string; description?: string }): string {
  return page(
    input.title,
    `<h1>${escapeHtml(input.title)}</h1>
${input.error ? `<p><code>${escapeHtml(input.error)}</code></p>` : ''}
${input.description ? `<p class="muted">${escapeHtml(input.description)}</p>` : ''}
<p class="muted">Go back to the app and try again. If this keeps happening, contact the app's developer.</p>`,
  );
}

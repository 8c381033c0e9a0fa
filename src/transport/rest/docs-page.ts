import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The API reference is rendered by Scalar (@scalar/api-reference, its standalone browser bundle),
// served by Portier itself: the page loads the bundle and the OpenAPI document from this host and
// nothing else (no fonts, CDN, proxy or telemetry: those defaults are turned off below, and the
// page's Content-Security-Policy allows this host only). Scalar injects its styles at run time,
// so styles need 'unsafe-inline'; scripts do not (the configuration is a data attribute).

/** Where the page loads the renderer from. */
export const DOCS_SCRIPT_PATH = '/api/docs/scalar.js';

/** The renderer's bundle, read once when first asked for. */
export function rendererBundle(): Buffer {
  const require = createRequire(import.meta.url);
  return readFileSync(require.resolve('@scalar/api-reference/browser/standalone.js'));
}

export const DOCS_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Scalar's settings: everything that would reach another host is off. */
const CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: 'never',
  hideDarkModeToggle: false,
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  metaData: { title: 'Portier API reference' },
};

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/** The page: Scalar, pointed at the OpenAPI document served beside it. */
export function renderDocsPage(documentPath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Portier API reference</title>
</head>
<body>
<script id="api-reference" data-url="${escapeAttribute(documentPath)}" data-configuration="${escapeAttribute(JSON.stringify(CONFIGURATION))}"></script>
<script src="${DOCS_SCRIPT_PATH}"></script>
</body>
</html>
`;
}

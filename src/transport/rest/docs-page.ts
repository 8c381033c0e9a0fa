import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// The API reference is rendered by Scalar (@scalar/api-reference, its standalone browser bundle),
// served by Portier itself. The build copies the bundle to dist/vendor/ (scripts/build-server.mjs),
// so the built server reads that file and needs no @scalar/api-reference (nor the TypeScript it
// brings) installed: the package is a devDependency; running from the sources (tsx, the tests)
// reads it from node_modules instead. The page loads the page loads the bundle and the OpenAPI document from this host and
// nothing else (no fonts, CDN, proxy or telemetry: those defaults are turned off below, and the
// page's Content-Security-Policy allows this host only). Scalar injects its styles at run time,
// so styles need 'unsafe-inline'; scripts do not (the configuration is a data attribute).

/** Where the page loads the renderer from. */
export const DOCS_SCRIPT_PATH = '/api/docs/scalar.js';

/** Where the build puts the bundle, beside dist/src (scripts/build-server.mjs). */
export const PREBUILT_BUNDLE = 'vendor/scalar-api-reference.standalone.txt';

/** The package's file, when the prebuilt copy is not there (running from the sources). */
const PACKAGE_BUNDLE = '@scalar/api-reference/browser/standalone.js';

/** The renderer's bundle, read once when first asked for: the build's copy, else the package's. */
export function rendererBundle(): Buffer {
  // dist/src/transport/rest/docs-page.js → dist/vendor/…; src/transport/rest/docs-page.ts → vendor/… (absent).
  const prebuilt = fileURLToPath(new URL(`../../../${PREBUILT_BUNDLE}`, import.meta.url));
  if (existsSync(prebuilt)) return readFileSync(prebuilt);
  try {
    return readFileSync(createRequire(import.meta.url).resolve(PACKAGE_BUNDLE));
  } catch {
    throw new Error(
      `The API reference's renderer is missing: neither ${prebuilt} (npm run build:server copies it) nor ${PACKAGE_BUNDLE} (a development install) is there`,
    );
  }
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

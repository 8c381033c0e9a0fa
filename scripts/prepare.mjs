// `npm install` / `npm ci` run this (package.json "prepare"): a development install builds dist/
// (`npm run build`); a production install (`npm ci --omit=dev`) has no TypeScript or Vite to build
// with and uses the dist/ and dashboard/dist/ already built (docs/deployment.md, "Production install").
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// npm passes --omit=dev (or NODE_ENV=production) to scripts as npm_config_omit. The build tools are
// checked as well: TypeScript alone is no sign (a runtime dependency's peer keeps it installed).
const omitted = (process.env.npm_config_omit ?? '').split(/[\s,]+/).includes('dev');
const resolvable = (name) => {
  try {
    createRequire(import.meta.url).resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
};
const devDependencies = !omitted && ['typescript', 'vite'].every(resolvable);
if (devDependencies) {
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
} else {
  const missing = ['dist/src/main.js', 'dashboard/dist/index.html'].filter((path) => !existsSync(`${root}${path}`));
  process.stderr.write(
    missing.length
      ? `portier prepare: no devDependencies (npm ci --omit=dev), so nothing is built, and ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing: build first (npm ci && npm run build), then prune (npm prune --omit=dev); see docs/deployment.md\n`
      : 'portier prepare: no devDependencies (npm ci --omit=dev): using the dist/ and dashboard/dist/ already built\n',
  );
}

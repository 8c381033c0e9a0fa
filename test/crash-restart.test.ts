import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, START_ARGS, childEnv, freePort, tempDir } from './processes.js';

// Finding 5 of issue 12: after a kill -9 of a server that runs as PID 1 (as in any container), the
// next start on the same PGLITE_DIR must come up — the lock dies with its process — and a second
// live process is still refused (test/server-process.test.ts).

const probe = spawnSync('unshare', ['-p', '-f', '--mount-proc', 'true'], { stdio: 'ignore' });
const runnable = probe.status === 0;
const title = runnable
  ? 'a server running as PID 1 (unshare -p -f --mount-proc)'
  : `a server running as PID 1 — SKIPPED: unshare -p -f --mount-proc is not permitted here (${probe.error?.message ?? `exit ${probe.status}`}); it needs root or user namespaces`;
if (!runnable) console.info(title);

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `npm start`'s node command as PID 1 of a new PID namespace; output collected. */
function startAsPid1(env: Record<string, string>) {
  const child = spawn('unshare', ['-p', '-f', '--mount-proc', process.execPath, ...START_ARGS], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out, exited };
}

async function poll<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  limitMs = 240_000,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const healthy = async (url: string) => {
  try {
    return (await fetch(`${url}/healthz`)).status === 200 ? true : undefined;
  } catch {
    return undefined;
  }
};

/** The host pid of the node process that is PID 1 inside the namespace (unshare's only child). */
function nodePidOf(unshare: ChildProcess): number | undefined {
  try {
    const children = readFileSync(`/proc/${unshare.pid}/task/${unshare.pid}/children`, 'utf8').trim();
    const pid = Number(children.split(/\s+/)[0]);
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

describe.skipIf(!runnable)(title, () => {
  it('restarts healthy on the same PGLITE_DIR after kill -9, with its data', { timeout: 600_000 }, async () => {
    const dir = tempDir('pid1');
    dirs.push(dir);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { PGLITE_DIR: dir, PORT: String(port) };

    const first = startAsPid1(env);
    await poll('the first start', () => healthy(url));
    // The demo banner (stdout) may arrive a moment after the server answers.
    await poll('the demo banner', () => Promise.resolve(first.out.stdout.includes('objects:') || undefined));
    const [, tenantId] = /tenantId: (\S+)/.exec(first.out.stdout) ?? [];
    const [, apiKey] = /apiKey: +(svc_\S+)/.exec(first.out.stdout) ?? [];
    expect(apiKey).toBeTruthy();
    expect(readFileSync(join(dir, 'portier.lock.pid'), 'utf8')).toBe('1');

    const nodePid = await poll('the node process', () => nodePidOf(first.child));
    process.kill(nodePid, 'SIGKILL');
    await first.exited;
    expect(await healthy(url)).toBeUndefined();

    const second = startAsPid1(env);
    await poll('the restart after kill -9', () => healthy(url));
    expect(second.out.stderr).not.toMatch(/in use by another Portier process/);
    const viewer = await fetch(`${url}/api/v1/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { id } }' }),
    });
    expect((await viewer.json()).data.viewer.id).toBe(tenantId);

    const secondPid = await poll('the node process', () => nodePidOf(second.child));
    process.kill(secondPid, 'SIGTERM');
    expect(await second.exited).toBe(0);
  });
});

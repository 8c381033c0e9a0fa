import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDatabaseUrl } from './worker-services.js';

// Real processes started the way the README starts them: `npm start`'s node command, and
// `npm run cli`'s node command (both run the compiled JavaScript in dist/).

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export { CLI_ARGS, START_ARGS } from './start-args.js';
import { CLI_ARGS, START_ARGS } from './start-args.js';

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), `portier-${prefix}-`));

/** The environment of a child: this one without any Portier setting, plus `env`. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const dropped = [
    'DATABASE_URL',
    'PGLITE_DIR',
    'PORTIER_SECRET',
    'PORT',
    'HOST',
    'PUBLIC_URL',
    'REDIS_URL',
    'LOG_LEVEL',
  ];
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !dropped.includes(name)));
  // Load shedding off unless a test sets it: a busy machine must not turn test requests into 503s.
  return { ...base, LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: '0', ...env };
}

/**
 * The worker's database settings for a child process: on PostgreSQL the harness's database (and a
 * server secret); on PGlite a fresh directory (a child cannot share the worker's in-memory db).
 */
export async function databaseSettings(): Promise<{ env: Record<string, string>; pgliteDir?: string }> {
  const databaseUrl = await runDatabaseUrl();
  if (databaseUrl) return { env: { DATABASE_URL: databaseUrl, PORTIER_SECRET: 'test-secret-0123456789abcdef' } };
  const pgliteDir = tempDir('cli');
  return { env: { PGLITE_DIR: pgliteDir }, pgliteDir };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>): Promise<Finished> {
  return finished(
    spawn(process.execPath, [...CLI_ARGS, ...args], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

export function finished(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A running `src/main.ts`; its output so far, a wait for a line, and a graceful stop. */
export class ServerProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, START_ARGS, {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  /** Resolves when `stream` contains `pattern`; rejects if the process exits first. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = this[stream].match(pattern);
        if (match) {
          cleanup();
          resolve(match);
        }
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`server exited (${code}) before ${pattern}:\n${this.stdout}\n${this.stderr}`));
      };
      const cleanup = () => {
        this.child[stream]!.off('data', check);
        this.child.off('close', onExit);
      };
      this.child[stream]!.on('data', check);
      this.child.on('close', onExit);
      check();
    });
  }

  async stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { ROOT, START_ARGS } from './processes.js';

/**
 * How long a start may take before a test gives up: generous, because a fresh embedded database
 * (migrations, the demo seed) starts slowly on a machine whose cores are busy with other work.
 */
export const STARTUP_LIMIT_MS = 240_000;

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout: string[];
  /** Parsed JSON log lines (stderr). */
  logs: Record<string, unknown>[];
  exited: Promise<number | null>;
  waitForLog(
    predicate: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** SIGTERM (if still running) and wait for the exit. */
  stop(): Promise<number | null>;
}

/**
 * Runs `npm start`'s node command with the given environment (on top of a copy of this
 * process's, without the database and Redis settings unless given) and waits until it listens.
 * It listens on a port the system picks (PORT=0) and says which in its "listening" line: a port
 * probed free here could be taken by a process of another test worker before the server binds it.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: {
    /** How long to wait for "listening" (default 60 s). */ startTimeoutMs?: number;
    /** Runs the server under `ulimit -n` this low (through bash). */ openFilesLimit?: number;
  } = {},
): Promise<ServerProcess> {
  const base: Record<string, string | undefined> = { ...process.env };
  delete base.DATABASE_URL;
  delete base.REDIS_URL;
  delete base.NODE_OPTIONS;
  const [command, args] = options.openFilesLimit
    ? ['bash', ['-c', `ulimit -n ${options.openFilesLimit} && exec "$0" "$@"`, process.execPath, ...START_ARGS]]
    : [process.execPath, START_ARGS];
  const child = spawn(command, args, {
    cwd: ROOT,
    // Load shedding off unless a test sets it: a busy machine must not turn test requests into 503s.
    env: {
      ...base,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const logs: Record<string, unknown>[] = [];
  const waiters: {
    predicate: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }[] = [];
  let stderrTail = '';
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const text of lines) {
      stderrTail = (stderrTail + text + '\n').slice(-4000);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue;
      }
      logs.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.predicate(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const waitForLog = (predicate: (line: Record<string, unknown>) => boolean, timeoutMs = STARTUP_LIMIT_MS) => {
    const seen = logs.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`server did not log the expected line; stderr:\n${stderrTail}`)),
        timeoutMs,
      );
      waiters.push({ predicate, resolve: (line) => (clearTimeout(timer), resolve(line)) });
      void exited.then((code) =>
        reject(new Error(`server exited (${code}) before logging the expected line; stderr:\n${stderrTail}`)),
      );
    });
  };

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };

  let url: string;
  try {
    const listening = await waitForLog((line) => line.msg === 'Portier is listening', options.startTimeoutMs);
    url = String(listening.url);
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, url, stdout, logs, exited, waitForLog, stop };
}

export interface Outcome {
  id: string;
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body?: string;
  /** The whole response arrived (message complete, body as long as announced). */
  complete: boolean;
  error?: string;
}

/** One request on its own connection (no keep-alive), with our X-Request-Id. */
export function send(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    id: string;
    /** Sends half the body, waits for this, then the rest. */ pauseBody?: Promise<unknown>;
  },
): Promise<Outcome> {
  return new Promise((settle) => {
    let settled = false;
    const resolve = (outcome: Outcome) => {
      if (!settled) settle(outcome);
      settled = true;
    };
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          'x-request-id': options.id,
          ...(options.body ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const announced = res.headers['content-length'];
          const complete = res.complete && (announced === undefined || Buffer.byteLength(body) === Number(announced));
          resolve({ id: options.id, status: res.statusCode, headers: res.headers, body, complete });
        });
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({
            id: options.id,
            status: res.statusCode,
            body,
            complete: false,
            error: error.code ?? error.message,
          }),
        );
        res.on('close', () =>
          resolve({ id: options.id, status: res.statusCode, body, complete: false, error: 'closed before the end' }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ id: options.id, complete: false, error: error.code ?? error.message }),
    );
    if (options.body && options.pauseBody) {
      const half = Math.floor(options.body.length / 2);
      req.setHeader('content-length', Buffer.byteLength(options.body));
      req.write(options.body.slice(0, half));
      void options.pauseBody.then(() => req.end(options.body!.slice(half)));
      return;
    }
    if (options.body) req.write(options.body);
    req.end();
  });
}

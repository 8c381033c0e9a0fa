import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

// The host around a run (issue #42 item 6): a reproducible "busy host" (`--busy`), and what the
// kernel saw during a run — the listen queue's overflows, SYN retransmissions, the load average,
// and how long a process waited for a CPU (its run-queue wait, from /proc/<pid>/schedstat).

/**
 * `--busy=S[,L]`: S CPU-bound processes (a busy loop each, normal priority, nice 0) pinned to the
 * server's core and L (default 0) to the load generator's, running from before the first
 * measurement to the end. S = 1 leaves the server half its core when it wants more; S = 4 a fifth.
 * The load generator's core is left alone by default: it stands for the doors, which are not on the
 * server's host, and a starved sender reports its own lateness as the server's latency.
 */
export interface BusySpec {
  serverCore: number;
  loadCore: number;
}

export function parseBusy(given: string | undefined): BusySpec | undefined {
  if (given === undefined) return undefined;
  const match = /^(\d+)(?:,(\d+))?$/.exec(given);
  if (!match) throw new Error(`--busy=${given}: give S or S,L (busy loops on the server's core, on the load core)`);
  const spec = { serverCore: Number(match[1]), loadCore: Number(match[2] ?? 0) };
  if (spec.serverCore + spec.loadCore === 0 || spec.serverCore > 16 || spec.loadCore > 16)
    throw new Error(`--busy=${given}: between 1 and 16 busy loops per core`);
  return spec;
}

/** Starts the busy loops; returns a function that stops them (and resolves once they have exited). */
export function startBusyLoops(spec: BusySpec, cores: { server: string; load: string }): () => Promise<void> {
  const children: ChildProcess[] = [];
  const loop = (core: string) =>
    children.push(
      spawn('taskset', ['-c', core, process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore', detached: false }),
    );
  for (let i = 0; i < spec.serverCore; i += 1) loop(cores.server);
  for (let i = 0; i < spec.loadCore; i += 1) loop(cores.load);
  const stopAll = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.on('exit', stopAll);
  return async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    process.off('exit', stopAll);
  };
}

export interface KernelCounters {
  listenOverflows: number;
  listenDrops: number;
  synRetransmits: number;
}

/** TcpExt counters of /proc/net/netstat (zeros where absent: not Linux). */
export function kernelCounters(): KernelCounters {
  const values = new Map<string, number>();
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
    for (let i = 0; i + 1 < lines.length; i += 2) {
      const names = lines[i].split(' ');
      const numbers = lines[i + 1].split(' ');
      if (names[0] !== 'TcpExt:') continue;
      names.forEach((name, k) => values.set(name, Number(numbers[k])));
    }
  } catch {
    // not Linux
  }
  return {
    listenOverflows: values.get('ListenOverflows') ?? 0,
    listenDrops: values.get('ListenDrops') ?? 0,
    synRetransmits: values.get('TCPSynRetrans') ?? 0,
  };
}

export function countersSince(before: KernelCounters): KernelCounters {
  const now = kernelCounters();
  return {
    listenOverflows: now.listenOverflows - before.listenOverflows,
    listenDrops: now.listenDrops - before.listenDrops,
    synRetransmits: now.synRetransmits - before.synRetransmits,
  };
}

/** The 1-minute load average. */
export function loadAverage(): number {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return NaN;
  }
}

/** Time on a CPU and waiting for one (run-queue), in seconds, summed over every thread of a process. */
function schedstat(pid: number): { runSeconds: number; waitSeconds: number } {
  let run = 0;
  let wait = 0;
  try {
    // Threads: libuv's pool and V8's helpers wait too, but the event loop is the main thread (tid = pid).
    const [onCpu, waiting] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    run = onCpu / 1e9;
    wait = waiting / 1e9;
  } catch {
    // not Linux, or gone
  }
  return { runSeconds: run, waitSeconds: wait };
}

export interface CpuWait {
  /** Seconds the main thread ran, and waited runnable for a CPU, while sampled. */
  runSeconds: number;
  waitSeconds: number;
}

/** Run-queue wait of a process's main thread from now until the returned function is called. */
export function sampleCpuWait(pid: number): () => CpuWait {
  const start = schedstat(pid);
  return () => {
    const end = schedstat(pid);
    return { runSeconds: end.runSeconds - start.runSeconds, waitSeconds: end.waitSeconds - start.waitSeconds };
  };
}

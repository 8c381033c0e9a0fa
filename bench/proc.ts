import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

// Server resource use, read from /proc: resident memory and CPU time of one process.

const CLOCK_TICKS = 100; // USER_HZ on Linux

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime + stime
}

function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

/** Resident memory of a process now (MB). */
export function rssMb(pid: number): number {
  return rssBytes(pid) / 1024 / 1024;
}

export interface ProcSample {
  maxRssMb: number;
  cpuPercent: number;
  /** CPU time used while sampled (user + system). */
  cpuSeconds: number;
}

/** Samples a process every 250 ms until stopped: peak RSS and mean CPU (% of one core). */
export function sampleProcess(pid: number): { stop(): ProcSample; peakRssMb(): number } {
  const startCpu = cpuSeconds(pid);
  const startAt = process.hrtime.bigint();
  let maxRss = rssBytes(pid);
  const timer = setInterval(() => {
    try {
      maxRss = Math.max(maxRss, rssBytes(pid));
    } catch {
      // process gone
    }
  }, 250);
  return {
    peakRssMb: () => maxRss / 1024 / 1024,
    stop() {
      clearInterval(timer);
      let cpu = 0;
      try {
        maxRss = Math.max(maxRss, rssBytes(pid));
        cpu = cpuSeconds(pid) - startCpu;
      } catch {
        // process gone
      }
      const elapsed = Number(process.hrtime.bigint() - startAt) / 1e9;
      return { maxRssMb: maxRss / 1024 / 1024, cpuPercent: elapsed > 0 ? (cpu / elapsed) * 100 : 0, cpuSeconds: cpu };
    },
  };
}

/** Stops a child process: SIGTERM, then SIGKILL after 10 s; resolves once it has exited. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import { DomainError } from '../../kernel/errors.js';

export const SHEDDING_RETRY_AFTER_SECONDS = 5;

/** When the process counts as saturated (docs/operations.md). */
export const LOAD_SHEDDING_DEFAULTS = {
  /** Mean event-loop delay over one sample, in ms: requests would wait this long for the loop. */
  maxEventLoopDelay: 1_000,
  sampleInterval: 1_000,
} satisfies FastifyUnderPressureOptions;

/**
 * A door's request (a route with `config.auth === 'device'`: access check, heartbeat, config,
 * access log, commands) is shed only once pressure has lasted this many sample intervals, against
 * two for every other route (issue #42 item 6). Meanwhile the other routes' 503s free the CPU for
 * the doors; pressure that outlasts that is the doors' own, and then a fast 503 lets a door decide
 * offline at once instead of waiting out its 5 s.
 */
export const DOOR_SHED_AFTER_INTERVALS = 5;

export type LoadSheddingOptions = Pick<
  FastifyUnderPressureOptions,
  'maxEventLoopDelay' | 'maxEventLoopUtilization' | 'maxHeapUsedBytes' | 'maxRssBytes' | 'sampleInterval'
> & {
  /** How long pressure must last before a door's request is shed (ms; default DOOR_SHED_AFTER_INTERVALS intervals). */
  doorSustainedMs?: number;
};

/**
 * Answers 503 (problem+json, Retry-After) while the event loop is saturated, before any
 * credential lookup or handler work. Routes with `config.shed === false` (the liveness probe)
 * are always served; the doors' routes are shed last (DOOR_SHED_AFTER_INTERVALS).
 *
 * Saturation is pressure that lasts: a sample is the mean delay over one interval, so a single
 * stretch of blocking (start-up, the demo seed, a long GC, a busy neighbour on the machine) makes
 * one bad sample. Requests are shed only once pressure was seen for two sample intervals in a row.
 */
export async function loadLoadShedding(app: FastifyInstance, options: LoadSheddingOptions = {}): Promise<void> {
  guardMemoryUsage();
  const { doorSustainedMs: doorOption, ...pressureOptions } = options;
  const settings = { ...LOAD_SHEDDING_DEFAULTS, ...pressureOptions };
  const sustainedMs = 2 * settings.sampleInterval;
  const doorSustainedMs = doorOption ?? DOOR_SHED_AFTER_INTERVALS * settings.sampleInterval;
  let pressureSince: number | undefined;
  let pressureSeen = 0;
  await app.register(underPressure, {
    ...settings,
    eventLoopUtilizationMode: 'interval',
    pressureHandler: async (req, reply, type, value) => {
      if (req.routeOptions.config?.shed === false) return;
      // An infinite delay means the last sample interval recorded no sample at all: the loop was
      // blocked by one long synchronous task (start-up: building the schema and the app) that is
      // over, since this request is being handled. A saturated loop still records (large) samples.
      if (type === 'eventLoopDelay' && value === Infinity) return;
      const now = Date.now();
      // A new episode when none is running or the last one was seen long ago (no requests since).
      if (pressureSince === undefined || now - pressureSeen > Math.max(2 * sustainedMs, 5_000)) pressureSince = now;
      pressureSeen = now;
      if (now - pressureSince < sustainedMs) return;
      if (req.routeOptions.config?.auth === 'device' && now - pressureSince < doorSustainedMs) return;
      reply.header('retry-after', SHEDDING_RETRY_AFTER_SECONDS);
      throw new DomainError(
        'UNAVAILABLE',
        'overloaded',
        `The server is overloaded (${type}); retry in ${SHEDDING_RETRY_AFTER_SECONDS} s`,
      );
    },
  });
  // Runs after under-pressure's own check: a request it let through ends the pressure episode.
  app.addHook('onRequest', async () => {
    if (pressureSince !== undefined && !app.isUnderPressure()) pressureSince = undefined;
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: never answered 503 by load shedding. */
    shed?: boolean;
  }
}

const GUARDED = Symbol.for('portier.memoryUsageGuarded');

/**
 * under-pressure samples process.memoryUsage() from a timer. Reading the resident set size opens
 * /proc/self/stat, which throws EMFILE while every descriptor is in use (a connection flood), and
 * a throw from a timer ends the process. Guarded: while it throws, the last reading is returned
 * (heap figures are still current). Installed once per process; harmless to call again.
 */
export function guardMemoryUsage(): void {
  const current = process.memoryUsage as typeof process.memoryUsage & { [GUARDED]?: true };
  if (current[GUARDED]) return;
  const original = current.bind(process);
  const originalRss = current.rss.bind(process.memoryUsage);
  let last = original();
  const guarded = (() => {
    try {
      last = original();
    } catch {
      last = { ...last, ...v8HeapNow() };
    }
    return last;
  }) as typeof process.memoryUsage & { [GUARDED]?: true };
  guarded.rss = () => {
    try {
      return originalRss();
    } catch {
      return last.rss;
    }
  };
  guarded[GUARDED] = true;
  process.memoryUsage = guarded;
}

/** Heap figures without a descriptor. */
function v8HeapNow(): { heapUsed: number; heapTotal: number } {
  const stats = getHeapStatistics();
  return { heapUsed: stats.used_heap_size, heapTotal: stats.total_heap_size };
}

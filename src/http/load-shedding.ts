import type { FastifyInstance } from 'fastify';
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import { DomainError } from '../errors.js';

export const SHEDDING_RETRY_AFTER_SECONDS = 5;

/** When the process counts as saturated (docs/operations.md). */
export const LOAD_SHEDDING_DEFAULTS = {
  /** Mean event-loop delay over one sample, in ms: requests would wait this long for the loop. */
  maxEventLoopDelay: 1_000,
  sampleInterval: 1_000,
} satisfies FastifyUnderPressureOptions;

export type LoadSheddingOptions = Pick<FastifyUnderPressureOptions, 'maxEventLoopDelay' | 'maxEventLoopUtilization' | 'maxHeapUsedBytes' | 'maxRssBytes' | 'sampleInterval'>;

/**
 * Answers 503 (problem+json, Retry-After) while the event loop is saturated, before any
 * credential lookup or handler work. Routes with `config.shed === false` (the liveness probe)
 * are always served.
 *
 * Saturation is pressure that lasts: a sample is the mean delay over one interval, so a single
 * stretch of blocking (start-up, the demo seed, a long GC, a busy neighbour on the machine) makes
 * one bad sample. Requests are shed only once pressure was seen for two sample intervals in a row.
 */
export async function loadLoadShedding(app: FastifyInstance, options: LoadSheddingOptions = {}): Promise<void> {
  const settings = { ...LOAD_SHEDDING_DEFAULTS, ...options };
  const sustainedMs = 2 * settings.sampleInterval;
  let pressureSince: number | undefined;
  let pressureSeen = 0;
  await app.register(underPressure, {
    ...settings,
    eventLoopUtilizationMode: 'interval',
    pressureHandler: async (req, reply, type) => {
      if (req.routeOptions.config?.shed === false) return;
      const now = Date.now();
      // A new episode when none is running or the last one was seen long ago (no requests since).
      if (pressureSince === undefined || now - pressureSeen > Math.max(2 * sustainedMs, 5_000)) pressureSince = now;
      pressureSeen = now;
      if (now - pressureSince < sustainedMs) return;
      reply.header('retry-after', SHEDDING_RETRY_AFTER_SECONDS);
      throw new DomainError('UNAVAILABLE', 'overloaded', `The server is overloaded (${type}); retry in ${SHEDDING_RETRY_AFTER_SECONDS} s`);
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

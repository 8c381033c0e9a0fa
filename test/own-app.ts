import type { FastifyInstance } from 'fastify';
import type { Env } from '../src/kernel/env.js';
import type { Tracing } from '../src/kernel/tracing.js';
import { composeDeps, type AppDeps } from '../src/app/deps.js';
import { buildApp, type App, type AppOptions } from '../src/transport/http/app.js';
import { createLogger } from '../src/kernel/logger.js';
import { memoryLimiterStore } from '../src/kernel/limits/index.js';
import { buildGuessLimits } from '../src/app/guess-limits.js';
import { requester, type Harness, type RequestOptions, type TestResponse } from './harness.js';

export interface OwnApp {
  app: App;
  deps: AppDeps;
  /** Every log line the app wrote (JSON strings), through the production logger and its redaction. */
  logs: string[];
  request: (options: RequestOptions) => Promise<TestResponse>;
  graphql(apiKey: string | null, query: string, variables?: Record<string, unknown>): Promise<TestResponse>;
  close(): Promise<void>;
}

/**
 * An app of its own on the harness's database, for tests that need other settings than the shared
 * app (a low rate limit, load-shedding thresholds) or its log output.
 */
export async function ownApp(
  h: Harness,
  settings: {
    env?: Partial<Env>;
    logLevel?: string;
    options?: AppOptions;
    /** Spans go to this tracer (the shared app has tracing off). */
    tracing?: Tracing;
    setup?: (fastify: FastifyInstance, deps: AppDeps) => void;
  } = {},
): Promise<OwnApp> {
  const logs: string[] = [];
  const log = createLogger(settings.logLevel ?? 'info', { write: (line: string) => void logs.push(line) });
  // Guessing limits of its own, in memory: a test that makes many wrong guesses (the fuzz test) must
  // not lock the shared app's clients out.
  const deps: AppDeps = composeDeps({
    ...h.deps,
    env: { ...h.deps.env, ...settings.env },
    log,
    limits: buildGuessLimits(memoryLimiterStore()),
    tracing: settings.tracing ?? h.deps.tracing,
  });
  const app = await buildApp(deps, settings.options);
  settings.setup?.(app.fastify, deps);
  await app.fastify.ready();
  const request = requester(app.fastify);
  return {
    app,
    deps,
    logs,
    request,
    graphql: (apiKey, query, variables) =>
      request({ method: 'POST', url: '/api/v1/graphql', apiKey, body: { query, variables } }),
    close: () => app.fastify.close(),
  };
}

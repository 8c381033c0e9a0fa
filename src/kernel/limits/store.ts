import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { failSpan, hasActiveSpan, SpanKind, type Tracer } from '../tracing.js';

/**
 * Where limiter counters live: in this process's memory, or in Redis so that every process of the
 * service shares them and a restart does not reset them. Opened once at the composition root
 * (src/app/runtime.ts); the request rate limit uses the same Redis connection.
 */
export type LimiterStore =
  { kind: 'memory'; close(): Promise<void> } | { kind: 'redis'; redis: Redis; close(): Promise<void> };

export function memoryLimiterStore(): LimiterStore {
  return { kind: 'memory', close: () => Promise.resolve() };
}

/** Connects to Redis (fails start-up when it cannot be reached) or, without a URL, keeps counters in memory. */
export async function openLimiterStore(
  redisUrl: string | undefined,
  log: Logger,
  tracer?: Tracer,
): Promise<LimiterStore> {
  if (!redisUrl) return memoryLimiterStore();
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 5_000,
    commandTimeout: 1_000,
  });
  redis.on('error', (error: Error) =>
    log.warn({ err: error }, 'limiter store (Redis) unavailable; limits fall back to this process until it is back'),
  );
  if (tracer) traceCommands(redis, tracer);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`REDIS_URL is set but Redis cannot be reached: ${(error as Error).message}`, { cause: error });
  }
  let closed = false;
  return {
    kind: 'redis',
    redis,
    async close() {
      if (closed) return;
      closed = true;
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * One CLIENT span per Redis command sent inside a span (docs/operations.md#traces): the command's
 * name only, never its arguments (keys name API keys and addresses).
 */
function traceCommands(redis: Redis, tracer: Tracer): void {
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command, stream) => {
    if (!hasActiveSpan()) return send(command, stream);
    const operation = command.name.toUpperCase();
    const span = tracer.startSpan(operation, {
      kind: SpanKind.CLIENT,
      attributes: { 'db.system': 'redis', 'db.system.name': 'redis', 'db.operation.name': operation },
    });
    command.promise.then(
      () => span.end(),
      (error: unknown) => {
        failSpan(span, error);
        span.end();
      },
    );
    return send(command, stream);
  };
}

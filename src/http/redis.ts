import { Redis } from 'ioredis';
import type { AppDeps } from '../deps.js';

/** A Redis connection for shared counters; start-up stops when REDIS_URL is set but unreachable. */
export async function connectRedis(url: string, deps: AppDeps, purpose: string, whileDown = 'falling back until it is back'): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 5_000, commandTimeout: 1_000 });
  redis.on('error', (error: Error) => deps.log.warn({ err: error }, `${purpose} (Redis) unavailable; ${whileDown}`));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`REDIS_URL is set but Redis cannot be reached: ${(error as Error).message}`);
  }
  return redis;
}

import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { LiveMessage, LiveTransport } from './hub.js';

/** The NOTIFY channel of live messages (PostgreSQL transport). */
export const LIVE_CHANNEL = 'portier_live';
/** The Redis pub/sub channel, after the connection's key prefix (tests give each worker its own). */
export const LIVE_REDIS_CHANNEL = 'portier:live';
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; a bigger message is dropped and logged. */
const MAX_NOTIFY_BYTES = 7_900;

function parse(text: string | undefined, log: Logger): LiveMessage | undefined {
  if (!text) return undefined;
  try {
    const message = JSON.parse(text) as Partial<LiveMessage>;
    if (typeof message.tenantId === 'string' && typeof message.topic === 'string' && message.data)
      return message as LiveMessage;
  } catch {
    // fall through: not ours
  }
  log.warn('a live message that is not one was ignored');
  return undefined;
}

/**
 * PostgreSQL LISTEN/NOTIFY (also PGlite, in its one process): a publish is one statement for the
 * tick's messages; every process listening on the database receives them once committed.
 */
export function notifyTransport(database: Database, log: Logger): LiveTransport {
  return {
    name: 'postgres-notify',
    async publish(messages) {
      const payloads: string[] = [];
      for (const message of messages) {
        const text = JSON.stringify(message);
        if (Buffer.byteLength(text) > MAX_NOTIFY_BYTES)
          log.warn({ topic: message.topic }, 'a live message too large for NOTIFY was dropped');
        else payloads.push(text);
      }
      if (!payloads.length) return;
      await sql`SELECT pg_notify(${LIVE_CHANNEL}, p) FROM unnest(${payloads}::text[]) AS p`.execute(database.db);
    },
    listen: (onMessage) =>
      database.listen(LIVE_CHANNEL, (payload) => {
        const message = parse(payload, log);
        if (message) onMessage(message);
      }),
  };
}

/**
 * Redis pub/sub (REDIS_URL): PUBLISH on the runtime's connection, SUBSCRIBE on a connection of its
 * own (a subscribed connection can do nothing else). Channels ignore ioredis's keyPrefix, so the
 * prefix is put in front of the channel's name by hand.
 */
export function redisTransport(redis: Redis, log: Logger): LiveTransport {
  const channel = `${redis.options.keyPrefix ?? ''}${LIVE_REDIS_CHANNEL}`;
  return {
    name: 'redis',
    async publish(messages) {
      if (messages.length === 1 && messages[0]) {
        await redis.publish(channel, JSON.stringify(messages[0]));
        return;
      }
      const pipeline = redis.pipeline();
      for (const message of messages) pipeline.publish(channel, JSON.stringify(message));
      await pipeline.exec();
    },
    async listen(onMessage) {
      // Its own connection, which keeps retrying and re-subscribes by itself after a reconnect.
      const subscriber = redis.duplicate({ lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: null });
      subscriber.on('error', (error: Error) => log.warn({ err: error }, 'live updates (Redis) unavailable; retrying'));
      subscriber.on('message', (name: string, payload: string) => {
        if (name !== channel) return;
        const message = parse(payload, log);
        if (message) onMessage(message);
      });
      await subscriber
        .connect()
        .catch((error: unknown) => log.warn({ err: error }, 'live updates (Redis) unavailable; retrying'));
      await subscriber.subscribe(channel);
      return async () => {
        await subscriber.quit().catch(() => subscriber.disconnect());
      };
    },
  };
}

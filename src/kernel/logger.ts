import pino, { type DestinationStream, type Logger } from 'pino';
import { requestContext } from './request-context.js';

/** Marks loggers that already bind the request id (fastify's per-request children and theirs). */
export const BINDS_REQUEST_ID = Symbol('portier.bindsRequestId');

/** Any Portier key (svc_…, svc_dk_…) longer than its displayed prefix. */
const KEY_PATTERN = /svc_(?:dk_)?[A-Za-z0-9_-]{6,}/g;
const SENSITIVE_QUERY = /(token|key|secret|code|password|signature|email|phone)/i;

/**
 * A path fit for logs and trace spans: a payment page's token (`/pay/<token>`) and a guest's manage
 * link token (`/b/<token>`, which opens the door key and cancels the booking) are secrets.
 */
export const redactPath = (path: string): string =>
  path.replace(/\/pay\/[^/]+/, '/pay/[redacted]').replace(/^\/b\/[^/]+/, '/b/[redacted]');

/** A URL fit for logs: sensitive query values and one-time path tokens are replaced. */
export function redactUrl(url: string): string {
  const [path, query] = url.split('?', 2) as [string, string | undefined];
  const safePath = redactPath(path);
  if (query === undefined) return safePath;
  const params = query.split('&').map((pair) => {
    const [name] = pair.split('=', 1) as [string];
    return SENSITIVE_QUERY.test(name) ? `${name}=[redacted]` : pair;
  });
  return `${safePath}?${params.join('&')}`;
}

interface SerializableRequest {
  method?: string;
  url?: string;
  ip?: string;
  routeOptions?: { url?: string };
}

/**
 * Properties a library hangs on an error that are live objects, not facts about the error: pg-pool
 * attaches the `client` (whose connection parameters hold the database password), sockets and
 * requests carry their peers' state. A log line keeps the error's own fields and drops these.
 */
const LIVE_ERROR_PROPERTIES = new Set(['client', 'connection', 'socket', 'request', 'response', 'config']);

export function serializeError(error: Error): Record<string, unknown> {
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.entries(serialized).filter(([key]) => !LIVE_ERROR_PROPERTIES.has(key)));
}

/**
 * JSON logs on stderr (stdout is reserved for the CLI's one JSON document). Credentials never
 * reach the stream: known fields are redacted by path, URLs lose sensitive query values, and a
 * last pass over every line replaces anything shaped like a Portier key. Lines written while a
 * request is served carry its `reqId`.
 */
export function createLogger(level: string, destination: DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          'authorization',
          '*.apiKey',
          '*.device_key',
          '*.secret',
          '*.token',
          '*.password',
          'apiKey',
          'device_key',
          'secret',
          'token',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: SerializableRequest) => ({
          method: req.method,
          url: req.url ? redactUrl(req.url) : undefined,
          route: req.routeOptions?.url,
          remoteAddress: req.ip,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
        err: serializeError,
      },
      mixin(_object, _level, logger) {
        if ((logger as unknown as Record<symbol, unknown>)[BINDS_REQUEST_ID]) return {};
        const context = requestContext.getStore();
        return context ? { reqId: context.reqId } : {};
      },
      hooks: {
        streamWrite: (line) => line.replace(KEY_PATTERN, 'svc_[redacted]'),
      },
    },
    destination,
  );
}

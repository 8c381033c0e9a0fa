// The only module that reads process.env (STYLE habit 7).

export interface Env {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections this process keeps open at most (docs/deployment.md). */
  databasePoolSize: number;
  /** Seconds a PostgreSQL connection may stay unused in the pool before it is closed; 0: never (docs/deployment.md). */
  databasePoolIdleSeconds: number;
  /** DATABASE_DEVICE_POOL_SIZE: PostgreSQL connections kept for the device routes alone (docs/configuration.md). */
  databaseDevicePoolSize: number;
  /** DATABASE_DEVICE_STATEMENT_TIMEOUT_MS: statement_timeout of those connections; 0: none. */
  databaseDeviceStatementTimeoutMs: number;
  /**
   * READINESS_MAX_POOL_WAITING: /readyz answers 503 pool_exhausted when every main-pool connection is
   * checked out and more than this many checkouts wait (docs/operations.md).
   */
  readinessMaxPoolWaiting: number;
  /** READINESS_MAX_REQUESTS_IN_FLIGHT: /readyz answers 503 requests_queued past this many requests in flight; 0: no bound. */
  readinessMaxRequestsInFlight: number;
  pgliteDir: string;
  publicUrl: string;
  rateLimitPerMinute: number;
  /** MAX_SUBSCRIPTIONS_PER_KEY: GraphQL subscriptions one API key (or OAuth grant) holds open at once, per process (docs/subscriptions.md). */
  maxSubscriptionsPerKey: number;
  /** LIVE_REVALIDATE_MS: how often open subscriptions re-check their credential (docs/subscriptions.md); 100 to 60000. */
  liveRevalidateMs: number;
  /**
   * DEVICE_CHANNEL_PING_SECONDS: how often an idle device command channel gets a keep-alive ping
   * (docs/devices.md, "The command channel"); 1 to 300, default 25 (below common proxies' 30 s idle cut).
   */
  deviceChannelPingSeconds: number;
  /**
   * API_KEY_CACHE_MS: how long a process reuses an API key's lookup (docs/api.md, "API key
   * format"): a key revoked in another process is refused here within this long; 0: never reused.
   */
  apiKeyCacheMs: number;
  webhookAllowPrivateNetworks: boolean;
  /** WEBHOOK_POLL_INTERVAL_MS: the dispatchers' fallback poll; they are woken on commit (docs/webhooks.md). */
  webhookPollIntervalMs: number;
  redisUrl: string | undefined;
  portierSecret: string | undefined;
  logLevel: string;
  /** fastify's trustProxy: false, true (any proxy), or the proxies' addresses/CIDRs, comma-separated. */
  trustProxy: boolean | string;
  /** CORS_ORIGINS: browser origins (exact, e.g. https://app.example.com) allowed to call the API; none by default. */
  corsOrigins: string[];
  /** METRICS_TOKEN: the bearer token GET /metrics requires; unset, /metrics is off (404). */
  metricsToken: string | undefined;
  /**
   * WORKER_METRICS_PORT: the port `npm run worker` serves GET /metrics on (on HOST; 0: any free
   * port). Unset (the default), the worker serves nothing. Needs METRICS_TOKEN.
   */
  workerMetricsPort: number | undefined;
  /** Load shedding's event-loop delay limit in ms (docs/operations.md); 0 turns shedding off. */
  loadSheddingMaxEventLoopDelayMs: number;
  /** How long a graceful stop may take before requests still running are answered 503 (exit 1). */
  shutdownTimeoutSeconds: number;
  /** MAX_CONNECTIONS: open client connections the server keeps at most (lowered at start-up to fit `ulimit -n`). */
  maxConnections: number;
  /** MAX_CONNECTIONS_PER_ADDRESS: open connections from one client address at most. */
  maxConnectionsPerAddress: number;
  /** HEADERS_TIMEOUT_SECONDS: a request's headers must arrive within this long of its first byte (slowloris). */
  headersTimeoutSeconds: number;
  /** REQUEST_TIMEOUT_SECONDS: a whole request (headers and body) must arrive within this long. */
  requestTimeoutSeconds: number;
  /**
   * FIRST_REQUEST_TIMEOUT_SECONDS: a connection that has not sent a whole request head this long
   * after it opened is closed (one that never sends a byte included).
   */
  firstRequestTimeoutSeconds: number;
  /**
   * KEEP_ALIVE_TIMEOUT_SECONDS: an idle keep-alive connection is kept open this long (at least
   * MIN_KEEP_ALIVE_TIMEOUT_SECONDS, so a door's heartbeat finds its connection open).
   */
  keepAliveTimeoutSeconds: number;
  /**
   * PORTIER_FAST_PATHS (default true): the bookings list's fast paths (src/modules/bookings/fast-paths).
   * false: the general resolver path answers every bookings list, GraphQL and REST.
   */
  fastPaths: boolean;
  /** The public booking page's bot protection (docs/booking-page.md, "Bot protection"). */
  bookingPage: {
    /** BOOKING_PAGE_POW_BITS: the proof of work's leading zero bits (0 to 24; each one doubles the guest's work). */
    powBits: number;
    /** BOOKING_PAGE_BOOKINGS_PER_ADDRESS_PER_HOUR: booking attempts one client address may make per venue and hour. */
    perAddressPerHour: number;
    /** BOOKING_PAGE_BOOKINGS_PER_TENANT_PER_HOUR: booking attempts one venue receives per hour from all addresses. */
    perTenantPerHour: number;
  };
  /** Stripe Checkout (docs/payments.md): all unset, guests pay at the venue. */
  stripe:
    | {
        secretKey: string;
        webhookSecret: string;
        apiBase: URL | undefined;
        /** STRIPE_REFUND_TIMEOUT_MS: one refund call's deadline (the refund worker's lease follows it). */
        refundTimeoutMs?: number;
      }
    | undefined;
  /** Guest email (docs/notifications.md): SMTP_URL and MAIL_FROM; null when SMTP_URL is unset. */
  mail: MailEnv | null;
  /** Guest SMS through a Twilio-shaped Messages API; null when SMS_ACCOUNT_SID is unset. */
  sms: SmsEnv | null;
  /**
   * OpenTelemetry traces (docs/observability.md#traces): on when OTEL_EXPORTER_OTLP_ENDPOINT is set;
   * null otherwise, and then no tracer is built and no span is made.
   */
  tracing: TracingEnv | null;
}

export interface TracingEnv {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to `<endpoint>/v1/traces` over OTLP/HTTP (JSON). */
  endpoint: string;
  /** OTEL_SERVICE_NAME (default "portier"): the traces' service.name. */
  serviceName: string;
}

export interface MailEnv {
  /** smtp://user:pass@host:port or smtps://… (the password is never logged). */
  smtpUrl: string;
  /** The From address; the tenant's sender name is put in front of it. */
  from: string;
  /** SMTP_TIMEOUT_SECONDS: how long connecting, the greeting and each reply may take (default 30). */
  timeoutMs: number;
}

export interface SmsEnv {
  apiBase: string;
  accountSid: string;
  authToken: string;
  from: string;
}

function mail(source: NodeJS.ProcessEnv): MailEnv | null {
  const smtpUrl = source.SMTP_URL || undefined;
  if (!smtpUrl) return null;
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new Error('SMTP_URL must be a URL such as smtp://user:pass@host:587 or smtps://user:pass@host:465');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}//"`);
  const from = source.MAIL_FROM || '';
  if (!/^[^\s@<>"]+@[^\s@<>"]+$/.test(from))
    throw new Error('MAIL_FROM must be set to an address such as bookings@example.com when SMTP_URL is set');
  return { smtpUrl, from, timeoutMs: integer('SMTP_TIMEOUT_SECONDS', source.SMTP_TIMEOUT_SECONDS, 30) * 1000 };
}

function sms(source: NodeJS.ProcessEnv): SmsEnv | null {
  const accountSid = source.SMS_ACCOUNT_SID || undefined;
  if (!accountSid) return null;
  const authToken = source.SMS_AUTH_TOKEN || '';
  const from = source.SMS_FROM || '';
  const apiBase = (source.SMS_API_BASE || 'https://api.twilio.com').replace(/\/+$/, '');
  if (!authToken) throw new Error('SMS_AUTH_TOKEN must be set when SMS_ACCOUNT_SID is set');
  if (!from) throw new Error('SMS_FROM must be set (a sender number or name) when SMS_ACCOUNT_SID is set');
  if (!/^[A-Za-z0-9]+$/.test(accountSid)) throw new Error('SMS_ACCOUNT_SID must be letters and digits only');
  let base: URL;
  try {
    base = new URL(apiBase);
  } catch {
    throw new Error(`SMS_API_BASE must be an http(s) URL, got "${apiBase}"`);
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:')
    throw new Error(`SMS_API_BASE must be an http(s) URL, got "${apiBase}"`);
  return { apiBase, accountSid, authToken, from };
}

function tracing(source: NodeJS.ProcessEnv): TracingEnv | null {
  const raw = source.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!raw) return null;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new Error(
      `OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL such as http://localhost:4318 (the collector's OTLP/HTTP base), got "${raw}"`,
    );
  return {
    endpoint: raw.replace(/\/+$/, ''),
    serviceName: source.OTEL_SERVICE_NAME?.trim() || 'portier',
  };
}

/**
 * The shortest KEEP_ALIVE_TIMEOUT_SECONDS: a door heartbeats every 15 s (devices'
 * HEARTBEAT_INTERVAL_SECONDS) on a kept connection, and must find it open, not make a new one each
 * time (a new connection waits in the accept queue, which a busy host lets overflow: issue #42 item 6).
 */
export const MIN_KEEP_ALIVE_TIMEOUT_SECONDS = 20;
/** fastify's default, the one Portier always had: above a load balancer's usual 60 s idle timeout. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_SECONDS = 72;

function keepAliveTimeout(raw: string | undefined): number {
  const seconds = integer('KEEP_ALIVE_TIMEOUT_SECONDS', raw, DEFAULT_KEEP_ALIVE_TIMEOUT_SECONDS);
  if (seconds < MIN_KEEP_ALIVE_TIMEOUT_SECONDS)
    throw new Error(
      `KEEP_ALIVE_TIMEOUT_SECONDS must be at least ${MIN_KEEP_ALIVE_TIMEOUT_SECONDS} (doors heartbeat every 15 s on a kept connection), got "${raw}"`,
    );
  return seconds;
}

function integer(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
  }
  return value;
}

function nonNegativeInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be 0 or a positive integer, got "${raw}"`);
  }
  return value;
}

function flag(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '') return false;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function trustProxy(raw: string | undefined): boolean | string {
  if (raw === undefined || raw === '' || ['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  return raw;
}

function origins(raw: string | undefined): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of list) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new Error(
        `CORS_ORIGINS must list exact origins such as https://app.example.com (scheme, host and port only), got "${origin}"`,
      );
    }
  }
  return list;
}

function token(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16) throw new Error(`${name} must be at least 16 characters long`);
  return raw;
}

function timeouts(source: NodeJS.ProcessEnv): { headersTimeoutSeconds: number; requestTimeoutSeconds: number } {
  const headersTimeoutSeconds = integer('HEADERS_TIMEOUT_SECONDS', source.HEADERS_TIMEOUT_SECONDS, 10);
  const requestTimeoutSeconds = integer('REQUEST_TIMEOUT_SECONDS', source.REQUEST_TIMEOUT_SECONDS, 30);
  if (headersTimeoutSeconds > requestTimeoutSeconds) {
    throw new Error(
      `HEADERS_TIMEOUT_SECONDS (${headersTimeoutSeconds}) must not exceed REQUEST_TIMEOUT_SECONDS (${requestTimeoutSeconds})`,
    );
  }
  return { headersTimeoutSeconds, requestTimeoutSeconds };
}

/** STRIPE_SECRET_KEY turns payments on; it needs STRIPE_WEBHOOK_SECRET; STRIPE_API_BASE points the SDK elsewhere. */
function stripe(source: NodeJS.ProcessEnv): Env['stripe'] {
  const secretKey = source.STRIPE_SECRET_KEY || undefined;
  const webhookSecret = source.STRIPE_WEBHOOK_SECRET || undefined;
  const base = source.STRIPE_API_BASE || undefined;
  if (!secretKey) {
    if (webhookSecret || base || source.STRIPE_REFUND_TIMEOUT_MS)
      throw new Error('STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE and STRIPE_REFUND_TIMEOUT_MS need STRIPE_SECRET_KEY');
    return undefined;
  }
  if (!webhookSecret)
    throw new Error(
      'STRIPE_SECRET_KEY needs STRIPE_WEBHOOK_SECRET (the signing secret of the webhook endpoint, whsec_…)',
    );
  let apiBase: URL | undefined;
  if (base) {
    try {
      apiBase = new URL(base);
    } catch {
      apiBase = undefined;
    }
    if (
      !apiBase ||
      !['http:', 'https:'].includes(apiBase.protocol) ||
      (apiBase.pathname !== '/' && apiBase.pathname !== '')
    ) {
      throw new Error(`STRIPE_API_BASE must be an http(s) origin such as https://api.stripe.com, got "${base}"`);
    }
  }
  const refundTimeoutMs = integer('STRIPE_REFUND_TIMEOUT_MS', source.STRIPE_REFUND_TIMEOUT_MS, 45_000);
  if (refundTimeoutMs < 1000 || refundTimeoutMs > 120_000)
    throw new Error(`STRIPE_REFUND_TIMEOUT_MS must be from 1000 to 120000, got "${source.STRIPE_REFUND_TIMEOUT_MS}"`);
  return { secretKey, webhookSecret, apiBase, refundTimeoutMs };
}

function workerMetricsPort(source: NodeJS.ProcessEnv): number | undefined {
  const raw = source.WORKER_METRICS_PORT;
  if (raw === undefined || raw === '') return undefined;
  const port = raw === '0' ? 0 : integer('WORKER_METRICS_PORT', raw, 0);
  if (port > 65_535) throw new Error(`WORKER_METRICS_PORT must be a port number (0 to 65535), got "${raw}"`);
  if (!source.METRICS_TOKEN)
    throw new Error('WORKER_METRICS_PORT needs METRICS_TOKEN (the bearer token a scrape must present)');
  return port;
}

/** At most a minute: a revoked credential's open streams must end soon; at least 100 ms, not a busy loop. */
function deviceChannelPingSeconds(raw: string | undefined): number {
  const seconds = integer('DEVICE_CHANNEL_PING_SECONDS', raw, 25);
  if (seconds > 300) throw new Error(`DEVICE_CHANNEL_PING_SECONDS must be 1 to 300, got "${raw}"`);
  return seconds;
}

function liveRevalidateMs(raw: string | undefined): number {
  const ms = nonNegativeInteger('LIVE_REVALIDATE_MS', raw, 5_000);
  if (ms < 100 || ms > 60_000) throw new Error(`LIVE_REVALIDATE_MS must be 100 to 60000, got "${raw}"`);
  return ms;
}

/** At most a minute: a revocation must reach every process soon. */
function apiKeyCacheMs(raw: string | undefined): number {
  const ms = nonNegativeInteger('API_KEY_CACHE_MS', raw, 1_000);
  if (ms > 60_000) throw new Error(`API_KEY_CACHE_MS must be at most 60000 (a minute), got "${raw}"`);
  return ms;
}

function bookingPage(source: NodeJS.ProcessEnv): Env['bookingPage'] {
  const powBits = nonNegativeInteger('BOOKING_PAGE_POW_BITS', source.BOOKING_PAGE_POW_BITS, 16);
  if (powBits > 24) throw new Error(`BOOKING_PAGE_POW_BITS must be 0 to 24, got "${source.BOOKING_PAGE_POW_BITS}"`);
  return {
    powBits,
    perAddressPerHour: integer(
      'BOOKING_PAGE_BOOKINGS_PER_ADDRESS_PER_HOUR',
      source.BOOKING_PAGE_BOOKINGS_PER_ADDRESS_PER_HOUR,
      10,
    ),
    perTenantPerHour: integer(
      'BOOKING_PAGE_BOOKINGS_PER_TENANT_PER_HOUR',
      source.BOOKING_PAGE_BOOKINGS_PER_TENANT_PER_HOUR,
      300,
    ),
  };
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const port = source.PORT === '0' ? 0 : integer('PORT', source.PORT, 3000);
  const host = source.HOST || '127.0.0.1';
  return {
    port,
    host,
    databaseUrl: source.DATABASE_URL || undefined,
    databasePoolSize: integer('DATABASE_POOL_SIZE', source.DATABASE_POOL_SIZE, 10),
    databasePoolIdleSeconds: nonNegativeInteger('DATABASE_POOL_IDLE_SECONDS', source.DATABASE_POOL_IDLE_SECONDS, 300),
    databaseDevicePoolSize: integer('DATABASE_DEVICE_POOL_SIZE', source.DATABASE_DEVICE_POOL_SIZE, 4),
    databaseDeviceStatementTimeoutMs: nonNegativeInteger(
      'DATABASE_DEVICE_STATEMENT_TIMEOUT_MS',
      source.DATABASE_DEVICE_STATEMENT_TIMEOUT_MS,
      2_000,
    ),
    readinessMaxPoolWaiting: nonNegativeInteger('READINESS_MAX_POOL_WAITING', source.READINESS_MAX_POOL_WAITING, 10),
    readinessMaxRequestsInFlight: nonNegativeInteger(
      'READINESS_MAX_REQUESTS_IN_FLIGHT',
      source.READINESS_MAX_REQUESTS_IN_FLIGHT,
      0,
    ),
    pgliteDir: source.PGLITE_DIR || './data',
    publicUrl: (source.PUBLIC_URL || `http://${host}:${port}`).replace(/\/+$/, ''),
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', source.RATE_LIMIT_PER_MINUTE, 100),
    maxSubscriptionsPerKey: integer('MAX_SUBSCRIPTIONS_PER_KEY', source.MAX_SUBSCRIPTIONS_PER_KEY, 20),
    liveRevalidateMs: liveRevalidateMs(source.LIVE_REVALIDATE_MS),
    deviceChannelPingSeconds: deviceChannelPingSeconds(source.DEVICE_CHANNEL_PING_SECONDS),
    apiKeyCacheMs: apiKeyCacheMs(source.API_KEY_CACHE_MS),
    webhookAllowPrivateNetworks: flag('WEBHOOK_ALLOW_PRIVATE_NETWORKS', source.WEBHOOK_ALLOW_PRIVATE_NETWORKS),
    webhookPollIntervalMs: integer('WEBHOOK_POLL_INTERVAL_MS', source.WEBHOOK_POLL_INTERVAL_MS, 5000),
    redisUrl: source.REDIS_URL || undefined,
    portierSecret: source.PORTIER_SECRET || undefined,
    logLevel: source.LOG_LEVEL || 'info',
    trustProxy: trustProxy(source.TRUST_PROXY),
    corsOrigins: origins(source.CORS_ORIGINS),
    metricsToken: token('METRICS_TOKEN', source.METRICS_TOKEN),
    workerMetricsPort: workerMetricsPort(source),
    loadSheddingMaxEventLoopDelayMs:
      source.LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS === '0'
        ? 0
        : integer('LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS', source.LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS, 1_000),
    shutdownTimeoutSeconds: integer('SHUTDOWN_TIMEOUT_SECONDS', source.SHUTDOWN_TIMEOUT_SECONDS, 25),
    maxConnections: integer('MAX_CONNECTIONS', source.MAX_CONNECTIONS, 10_000),
    maxConnectionsPerAddress: integer('MAX_CONNECTIONS_PER_ADDRESS', source.MAX_CONNECTIONS_PER_ADDRESS, 1_000),
    ...timeouts(source),
    firstRequestTimeoutSeconds: integer('FIRST_REQUEST_TIMEOUT_SECONDS', source.FIRST_REQUEST_TIMEOUT_SECONDS, 10),
    keepAliveTimeoutSeconds: keepAliveTimeout(source.KEEP_ALIVE_TIMEOUT_SECONDS),
    fastPaths:
      source.PORTIER_FAST_PATHS === undefined || source.PORTIER_FAST_PATHS === ''
        ? true
        : flag('PORTIER_FAST_PATHS', source.PORTIER_FAST_PATHS),
    bookingPage: bookingPage(source),
    stripe: stripe(source),
    mail: mail(source),
    sms: sms(source),
    tracing: tracing(source),
  };
}

/**
 * The parsers of STRIPE_*, SMTP_URL/MAIL_FROM and SMS_* applied to other settings of the same
 * names: a venue's credentials set in the dashboard are checked exactly as the environment's
 * (src/modules/credentials). Each throws an Error naming the setting.
 */
export const providerSettingsParsers = { stripe, mail, sms };

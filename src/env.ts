// The only module that reads process.env (STYLE habit 7).

export interface Env {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections this process keeps open at most (docs/deployment.md). */
  databasePoolSize: number;
  pgliteDir: string;
  publicUrl: string;
  rateLimitPerMinute: number;
  webhookAllowPrivateNetworks: boolean;
  redisUrl: string | undefined;
  portierSecret: string | undefined;
  logLevel: string;
  /** fastify's trustProxy: false, true (any proxy), or the proxies' addresses/CIDRs, comma-separated. */
  trustProxy: boolean | string;
  /** CORS_ORIGINS: browser origins (exact, e.g. https://app.example.com) allowed to call the API; none by default. */
  corsOrigins: string[];
  /** METRICS_TOKEN: the bearer token GET /metrics requires; unset, /metrics is off (404). */
  metricsToken: string | undefined;
  /** Load shedding's event-loop delay limit in ms (docs/operations.md); 0 turns shedding off. */
  loadSheddingMaxEventLoopDelayMs: number;
  /** How long a graceful stop may take before requests still running are answered 503 (exit 1). */
  shutdownTimeoutSeconds: number;
}

function integer(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
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
      throw new Error(`CORS_ORIGINS must list exact origins such as https://app.example.com (scheme, host and port only), got "${origin}"`);
    }
  }
  return list;
}

function token(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16) throw new Error(`${name} must be at least 16 characters long`);
  return raw;
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const port = source.PORT === '0' ? 0 : integer('PORT', source.PORT, 3000);
  const host = source.HOST || '127.0.0.1';
  return {
    port,
    host,
    databaseUrl: source.DATABASE_URL || undefined,
    databasePoolSize: integer('DATABASE_POOL_SIZE', source.DATABASE_POOL_SIZE, 10),
    pgliteDir: source.PGLITE_DIR || './data',
    publicUrl: (source.PUBLIC_URL || `http://${host}:${port}`).replace(/\/+$/, ''),
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', source.RATE_LIMIT_PER_MINUTE, 100),
    webhookAllowPrivateNetworks: flag('WEBHOOK_ALLOW_PRIVATE_NETWORKS', source.WEBHOOK_ALLOW_PRIVATE_NETWORKS),
    redisUrl: source.REDIS_URL || undefined,
    portierSecret: source.PORTIER_SECRET || undefined,
    logLevel: source.LOG_LEVEL || 'info',
    trustProxy: trustProxy(source.TRUST_PROXY),
    corsOrigins: origins(source.CORS_ORIGINS),
    metricsToken: token('METRICS_TOKEN', source.METRICS_TOKEN),
    loadSheddingMaxEventLoopDelayMs:
      source.LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS === '0' ? 0 : integer('LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS', source.LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS, 1_000),
    shutdownTimeoutSeconds: integer('SHUTDOWN_TIMEOUT_SECONDS', source.SHUTDOWN_TIMEOUT_SECONDS, 25),
  };
}

// The only module that reads process.env (STYLE habit 7).

export interface Env {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  pgliteDir: string;
  publicUrl: string;
  rateLimitPerMinute: number;
  webhookAllowPrivateNetworks: boolean;
  redisUrl: string | undefined;
  portierSecret: string | undefined;
  logLevel: string;
  /** fastify's trustProxy: false, true (any proxy), or the proxies' addresses/CIDRs, comma-separated. */
  trustProxy: boolean | string;
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

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const port = source.PORT === '0' ? 0 : integer('PORT', source.PORT, 3000);
  const host = source.HOST || '127.0.0.1';
  return {
    port,
    host,
    databaseUrl: source.DATABASE_URL || undefined,
    pgliteDir: source.PGLITE_DIR || './data',
    publicUrl: (source.PUBLIC_URL || `http://${host}:${port}`).replace(/\/+$/, ''),
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', source.RATE_LIMIT_PER_MINUTE, 100),
    webhookAllowPrivateNetworks: flag('WEBHOOK_ALLOW_PRIVATE_NETWORKS', source.WEBHOOK_ALLOW_PRIVATE_NETWORKS),
    redisUrl: source.REDIS_URL || undefined,
    portierSecret: source.PORTIER_SECRET || undefined,
    logLevel: source.LOG_LEVEL || 'info',
    trustProxy: trustProxy(source.TRUST_PROXY),
    shutdownTimeoutSeconds: integer('SHUTDOWN_TIMEOUT_SECONDS', source.SHUTDOWN_TIMEOUT_SECONDS, 25),
  };
}

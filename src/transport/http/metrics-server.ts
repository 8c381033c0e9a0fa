import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerToken } from '../../kernel/auth/principal.js';
import type { Metrics } from '../../kernel/metrics.js';

// The worker's GET /metrics (`npm run worker` serves no API): a bare HTTP listener on its own port
// (WORKER_METRICS_PORT), with the API's rules: METRICS_TOKEN as a bearer token, nothing else served.

export const METRICS_PATH = '/metrics';

const digest = (value: string) => createHash('sha256').update(value).digest();
/** Compares the presented token with the configured one in constant time. */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  return presented !== undefined && timingSafeEqual(digest(presented), digest(expected));
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

function problem(status: number, title: string, detail: string): string {
  return JSON.stringify({ type: 'about:blank', title, status, detail });
}

export async function startMetricsServer(
  metrics: Metrics,
  options: { port: number; host: string; token: string },
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(404, { 'content-type': 'application/problem+json' })
        .end(problem(404, 'Not Found', 'This port serves GET /metrics only'));
      return;
    }
    if (!tokenMatches(bearerToken(req.headers.authorization), options.token)) {
      res
        .writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' })
        .end(problem(401, 'Unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>'));
      return;
    }
    metrics.registry.metrics().then(
      (text) =>
        res
          .writeHead(200, { 'content-type': metrics.registry.contentType })
          .end(req.method === 'HEAD' ? undefined : text),
      () =>
        res
          .writeHead(500, { 'content-type': 'application/problem+json' })
          .end(problem(500, 'Internal Server Error', 'The metrics could not be collected')),
    );
  });
  // A scrape is short; an idle connection is not kept past this.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}${METRICS_PATH}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import {
  BlockedAddressError,
  guardedLookup,
  isIpLiteral,
  literalRefusal,
  systemResolver,
  type Resolver,
} from './address-guard.js';

// One HTTP POST to a receiver: bounded by a timeout, redirects not followed, the response's
// headers and the first RESPONSE_BODY_KEPT bytes of its body kept for the delivery log (the rest is
// read and thrown away), and every connection checked by the SSRF guard when it is opened.
//
// Connections are kept alive between deliveries to the same receiver (a few seconds idle at most),
// which spares a TCP (and TLS) handshake per delivery. A kept connection the receiver closed just as
// a delivery went out fails with a reset before any response; that one delivery is sent again at
// once on a new connection, with the same webhook-id (docs/webhooks.md#connections).

export const DELIVERY_TIMEOUT_MS = 15_000;
const USER_AGENT = 'Portier-Webhooks/1.0';
/** Response bytes read before the connection is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** How long a kept connection may sit idle; the receiver's own `Keep-Alive: timeout` shortens it. */
export const KEEP_ALIVE_IDLE_MS = 4000;
/** Idle connections kept per receiver (host and port). */
const KEPT_PER_RECEIVER = 16;
/** The prefix of the response body kept for the delivery log (docs/webhooks.md#delivery-log). */
export const RESPONSE_BODY_KEPT = 4 * 1024;

export interface SenderOptions {
  allowPrivateNetworks: boolean;
  timeoutMs?: number;
  /** Tests inject a resolver to simulate DNS (e.g. rebinding to loopback). */
  resolver?: Resolver;
}

export interface SendResult {
  /** The receiver's HTTP status, or null when no response arrived. */
  statusCode: number | null;
  durationMs: number;
  /** What went wrong, in our words (never the receiver's body); null on a 2xx. */
  error: string | null;
  /** The receiver's Retry-After header, if any. */
  retryAfter: string | null;
  /** The headers sent, as sent (the signature, never the secret). */
  requestHeaders?: Record<string, string>;
  /** The response's headers; null when no response arrived. */
  responseHeaders?: Record<string, string> | null;
  /** The first RESPONSE_BODY_KEPT bytes of the response body (UTF-8); null when no response arrived. */
  responseBody?: string | null;
  /** True when the response body was longer than what was kept. */
  responseBodyTruncated?: boolean;
}

export type Sender = (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;

function describeError(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error instanceof BlockedAddressError) return error.message;
  switch (error.code) {
    case 'ETIMEDOUT_DELIVERY':
      return `timed out after ${timeoutMs / 1000} s`;
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return error.code ? `request failed (${error.code})` : 'request failed';
  }
}

export function createSender(options: SenderOptions): Sender {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const lookup = options.allowPrivateNetworks ? undefined : guardedLookup(options.resolver ?? systemResolver);
  const guard = lookup ? { lookup } : {};
  const kept = { keepAlive: true, maxFreeSockets: KEPT_PER_RECEIVER, timeout: KEEP_ALIVE_IDLE_MS, ...guard };
  const agents: Agents = {
    'http:': new http.Agent(kept),
    'https:': new https.Agent(kept),
  };
  // For the one resend after a kept connection turned out to be closed: always a new connection.
  const fresh: Agents = {
    'http:': new http.Agent({ keepAlive: false, ...guard }),
    'https:': new https.Agent({ keepAlive: false, ...guard }),
  };

  return async (url, headers, body) => {
    const started = performance.now();
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return failed(started, 'invalid URL');
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      return failed(started, `unsupported protocol ${target.protocol}`);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // Node connects to IP literals without a lookup, so they are checked here.
    if (lookup && isIpLiteral(host)) {
      const refusal = literalRefusal(host);
      if (refusal) return failed(started, new BlockedAddressError(refusal).message);
    }
    const sent = {
      ...headers,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': USER_AGENT,
    };
    const post = (agent: http.Agent) => postOnce({ target, host, agent, headers: sent, body, timeoutMs, started });
    const first = await post(agents[target.protocol]);
    return first.staleConnection ? (await post(fresh[target.protocol])).result : first.result;
  };
}

type Agents = Record<'http:' | 'https:', http.Agent>;

function failed(started: number, error: string): SendResult {
  return { statusCode: null, durationMs: Math.round(performance.now() - started), error, retryAfter: null };
}

interface Post {
  target: URL;
  host: string;
  agent: http.Agent;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** performance.now() when the delivery's first try began: durationMs counts from it. */
  started: number;
}

/**
 * One request. `staleConnection`: it went out on a kept connection that was reset (or closed)
 * before any response came back — the receiver closed the idle connection as it was reused.
 */
function postOnce(p: Post): Promise<{ result: SendResult; staleConnection: boolean }> {
  return new Promise((resolve) => {
    let settled = false;
    // eslint-disable-next-line prefer-const -- assigned once below, after finish(), which clears it, is defined
    let timer: NodeJS.Timeout | undefined;
    let responseHeaders: Record<string, string> | null = null;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let truncated = false;
    const finish = (
      statusCode: number | null,
      error: string | null,
      retryAfter: string | null = null,
      staleConnection = false,
    ) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        staleConnection,
        result: {
          statusCode,
          durationMs: Math.round(performance.now() - p.started),
          error,
          retryAfter,
          requestHeaders: p.headers,
          responseHeaders,
          responseBody: responseHeaders ? keptText(Buffer.concat(kept)) : null,
          responseBodyTruncated: truncated,
        },
      });
    };

    const { target } = p;
    const request = (target.protocol === 'https:' ? https : http).request(
      {
        agent: p.agent,
        protocol: target.protocol,
        hostname: p.host,
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        auth: target.username
          ? `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`
          : undefined,
        headers: p.headers,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const retryAfter = typeof response.headers['retry-after'] === 'string' ? response.headers['retry-after'] : null;
        responseHeaders = flatHeaders(response.headers);
        const ok = status >= 200 && status < 300;
        const outcome = ok
          ? null
          : status >= 300 && status < 400
            ? `redirect (${status}) not followed`
            : `receiver answered ${status}`;
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (keptBytes < RESPONSE_BODY_KEPT) {
            const part = chunk.subarray(0, RESPONSE_BODY_KEPT - keptBytes);
            kept.push(part);
            keptBytes += part.length;
          }
          if (received > RESPONSE_BODY_KEPT) truncated = true;
          if (received > MAX_RESPONSE_BYTES) {
            finish(status, outcome, retryAfter);
            // Not read to its end: the connection is not reused.
            response.destroy();
          }
        });
        response.on('end', () => finish(status, outcome, retryAfter));
        // A body cut short (timeout, reset) keeps the status that was already received.
        response.on('error', () => finish(status, outcome, retryAfter));
        response.on('close', () => finish(status, outcome, retryAfter));
      },
    );
    timer = setTimeout(() => {
      request.destroy(Object.assign(new Error('delivery timed out'), { code: 'ETIMEDOUT_DELIVERY' }));
    }, p.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && responseHeaders === null && STALE_CODES.has(error.code ?? '');
      finish(null, describeError(error, p.timeoutMs), null, stale);
    });
    request.end(p.body);
  });
}

/** How a kept connection the receiver had closed fails when it is reused. */
const STALE_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

/**
 * The kept bytes as text: a character cut at the 4 KiB boundary is dropped, not shown as U+FFFD, and
 * a NUL (which PostgreSQL's text cannot hold) is shown as U+FFFD, like any byte that is not UTF-8.
 */
export function keptText(bytes: Buffer): string {
  return new TextDecoder('utf-8', { fatal: false })
    .decode(bytes)
    .replace(/\uFFFD$/, '')
    .replaceAll('\u0000', '\uFFFD');
}

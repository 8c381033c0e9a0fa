import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { redactPath } from '../../kernel/logger.js';
import { context, SpanKind, SpanStatusCode, trace, type Span, type Tracing } from '../../kernel/tracing.js';

// One SERVER span per HTTP request (docs/operations.md#traces), named `<METHOD> <route template>`
// (`POST /api/v1/graphql`, `GET /api/v1/tenants/:tenantId/bookings/:id`), a child of the caller's
// trace when the request carries a valid W3C `traceparent`. Installed only when tracing is on: with
// it off, the server's request handler is fastify's own, untouched.

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Wraps fastify's request handler so that everything it runs for a request (hooks, body parsing,
 * the route, what the route awaits) runs with the request's span active. Call right after the
 * fastify instance is made, before anything else listens for requests.
 */
export function traceRequests(fastify: FastifyInstance, tracing: Tracing): void {
  const spans = new WeakMap<IncomingMessage, Span>();
  const server = fastify.server;
  const handlers = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', function tracedRequest(req: IncomingMessage, res: ServerResponse) {
    const method = req.method ?? 'GET';
    const parent = tracing.extract(req.headers);
    const span = tracing.tracer.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': method,
          'url.path': pathOf(req.url),
          'url.scheme': 'http',
          'network.protocol.version': req.httpVersion,
        },
      },
      parent,
    );
    spans.set(req, span);
    const active = trace.setSpan(parent, span);
    // Body chunks and the response's events come from the socket, outside this call: their
    // listeners are bound to the request's context too.
    context.bind(active, req);
    context.bind(active, res);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      if (res.writableFinished) {
        span.setAttribute('http.response.status_code', res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      } else {
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'the connection closed before the response was sent' });
      }
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    context.with(active, () => {
      for (const handler of handlers) handler.call(server, req, res);
    });
  });
  // The route is known once fastify has matched it (an unmatched request keeps the method alone).
  fastify.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    const span = spans.get(request.raw);
    if (span && route) {
      span.updateName(`${request.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    done();
  });
}

/**
 * The request target without its query string (which may carry tokens or personal data), and
 * with a payment page's token replaced (`/pay/[redacted]`): whoever reads the traces must not be
 * able to open (and pay or read) a guest's payment page.
 */
function pathOf(url: string | undefined): string {
  if (!url) return '/';
  const query = url.indexOf('?');
  return redactPath(query === -1 ? url : url.slice(0, query));
}

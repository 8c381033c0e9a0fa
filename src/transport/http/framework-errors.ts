import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { problem } from '../../kernel/errors.js';
import type { RateLimit } from './rate-limit.js';
import { VERSION_HEADER, versionEchoed } from './api-version.js';
import { isManagePath, sendManageLinkNotFound } from '../../modules/guest/index.js';

const PROBLEM = 'application/problem+json; charset=utf-8';

/**
 * Requests fastify refuses before routing (a malformed URL, an over-long path parameter) skip
 * every hook. They still get problem+json, X-Request-Id and the rate-limit headers, and count
 * against the client address's budget. The limiter exists only once the app is built, hence the
 * holder.
 */
export function frameworkErrorHandler(holder: { rateLimit?: RateLimit; headers?: Record<string, string> }) {
  return async (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    reply.header('x-request-id', req.id);
    if (holder.headers) reply.headers(holder.headers);
    reply.header(VERSION_HEADER, versionEchoed(req.headers['portier-version']));
    const limit = holder.rateLimit ? await holder.rateLimit.check(req).catch(() => undefined) : undefined;
    if (limit && !limit.isAllowed) {
      reply
        .header('x-ratelimit-limit', limit.max)
        .header('x-ratelimit-remaining', limit.remaining)
        .header('x-ratelimit-reset', limit.ttlInSeconds);
      if (limit.isExceeded) {
        reply.header('retry-after', limit.ttlInSeconds);
        return reply
          .status(429)
          .type(PROBLEM)
          .send(
            problem(
              429,
              'rate_limited',
              `Rate limit of ${limit.max} requests per minute exceeded; retry in ${limit.ttlInSeconds} s`,
            ),
          );
      }
    }
    const status = error.statusCode ?? 400;
    // A guest's manage link that cannot even be routed opens nothing: the same page as any other (docs/booking-page.md).
    if ((status === 400 || status === 414) && isManagePath(req.url)) return sendManageLinkNotFound(req, reply);
    const code = (error.code ?? 'bad_request').replace(/^FST_ERR_/, '').toLowerCase();
    // A URL fastify cannot route is the path's fault: name it, like any refused field.
    const fields =
      status === 400 || status === 414
        ? [
            {
              field: 'path',
              message:
                status === 414 ? 'has a parameter longer than 100 characters' : 'is not valid percent-encoded UTF-8',
            },
          ]
        : undefined;
    return reply
      .status(status)
      .type(PROBLEM)
      .send(problem(status, code, error.message, fields));
  };
}

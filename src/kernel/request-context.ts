import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, RawRequestDefaultExpression } from 'fastify';

/** What every log line written while serving a request carries (see src/kernel/logger.ts). */
export interface RequestContext {
  reqId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

/** An incoming X-Request-Id is kept when it is short and plain; otherwise a new one is made. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(raw: RawRequestDefaultExpression): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
}

const scope = Symbol('portier.requestScope');

declare module 'fastify' {
  interface FastifyRequest {
    [scope]?: AsyncResource;
  }
}

/**
 * Answers every request with X-Request-Id and runs the rest of the request inside an async
 * context that names it, so lines logged through `deps.log` (resolvers, services) carry the id too.
 * Body parsing runs on the socket's callbacks, outside that context: preValidation re-enters it,
 * as @fastify/request-context does.
 */
export function registerRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (req: FastifyRequest, reply, done) => {
    reply.header('x-request-id', req.id);
    requestContext.run({ reqId: req.id }, () => {
      req[scope] = new AsyncResource('portier.request');
      done();
    });
  });
  app.addHook('preValidation', (req, _reply, done) => {
    const resource = req[scope];
    if (resource) resource.runInAsyncScope(done, req.raw);
    else done();
  });
}

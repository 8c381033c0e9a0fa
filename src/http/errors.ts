import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { DomainError, problem, problemOf, type FieldError } from '../errors.js';
import { GRAPHQL_PATH } from '../graphql/yoga.js';

const PROBLEM = 'application/problem+json; charset=utf-8';

function fieldErrorsOfValidation(error: FastifyError): FieldError[] {
  return (error.validation ?? []).map((v) => {
    const path = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
    const missing = (v.params as { missingProperty?: string })?.missingProperty;
    const field = [path, missing].filter(Boolean).join('.') || (error.validationContext ?? 'body');
    return { field, message: v.message ?? 'is invalid' };
  });
}

/** Every error leaving fastify: problem+json (GraphQL-shaped on the GraphQL endpoint), never a stack. */
export function registerErrorHandling(app: FastifyInstance, deps: AppDeps): void {
  app.setErrorHandler((error: FastifyError | DomainError, req, reply) => {
    if (error instanceof DomainError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      if (req.url.startsWith(GRAPHQL_PATH)) {
        return reply
          .status(error.status)
          .type('application/json; charset=utf-8')
          .send({ errors: [{ message: error.message, extensions: { code: error.kind, reason: error.code } }] });
      }
      return reply.status(error.status).type(PROBLEM).send(problemOf(error));
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      const fields = fieldErrorsOfValidation(fe);
      const detail = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
      return reply.status(400).type(PROBLEM).send(problem(400, 'validation_failed', detail, fields));
    }
    const status = fe.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = (fe.code ?? 'bad_request').replace(/^FST_ERR_/, '').toLowerCase();
      if (status === 429) return reply.status(429).type(PROBLEM).send(problem(429, 'rate_limited', fe.message));
      return reply.status(status).type(PROBLEM).send(problem(status, code, fe.message));
    }
    deps.log.error({ err: error, reqId: req.id }, 'unexpected error');
    return reply.status(500).type(PROBLEM).send(problem(500, 'internal_error', 'Unexpected error.'));
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).type(PROBLEM).send(problem(404, 'route_not_found', `No route ${req.method} ${req.url.split('?')[0]}`));
  });
}

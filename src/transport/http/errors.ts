import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { DomainError, problem, problemOf, type FieldError } from '../../kernel/errors.js';
import { GRAPHQL_PATH } from '../graphql/yoga.js';
import { databaseTimeout, databaseUnavailable, isDatabaseTimeout } from '../graphql/error-cause.js';
import { isBrokenConnection } from '../../kernel/db/broken-connection.js';
import { BODY_LIMIT_BYTES } from './limits.js';

const PROBLEM = 'application/problem+json; charset=utf-8';

function fieldErrorsOfValidation(error: FastifyError): FieldError[] {
  return (error.validation ?? []).map((v) => {
    const path = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
    const missing = (v.params as { missingProperty?: string })?.missingProperty;
    const field = [path, missing].filter(Boolean).join('.') || (error.validationContext ?? 'body');
    return { field, message: v.message ?? 'is invalid' };
  });
}

/** fastify's own request errors, as domain errors with Portier's codes. */
function domainErrorOfFramework(error: FastifyError): DomainError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError(
        'PAYLOAD_TOO_LARGE',
        'payload_too_large',
        `The request body is larger than ${BODY_LIMIT_BYTES} bytes (1 MiB)`,
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new DomainError('BAD_USER_INPUT', 'malformed_json', 'The request body is not valid JSON', {
        fieldErrors: [
          { field: 'body', message: 'is not valid JSON (or holds a __proto__ or constructor.prototype key)' },
        ],
      });
    default:
      return undefined;
  }
}

/**
 * Every error leaving fastify: problem+json, or GraphQL-shaped (`errors[].extensions.code`) on the
 * GraphQL endpoint — with the same status either way. Never a stack trace.
 */
export function registerErrorHandling(app: FastifyInstance, _deps: AppDeps): void {
  app.setErrorHandler((thrown: FastifyError | DomainError, req, reply) => {
    const error =
      thrown instanceof DomainError
        ? thrown
        : (domainErrorOfFramework(thrown) ??
          (isBrokenConnection(thrown)
            ? databaseUnavailable()
            : isDatabaseTimeout(thrown)
              ? databaseTimeout()
              : thrown));
    if (error instanceof DomainError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      if (req.url.startsWith(GRAPHQL_PATH)) {
        return reply
          .status(error.status)
          .type('application/json; charset=utf-8')
          .send({
            errors: [
              {
                message: error.message,
                extensions: {
                  code: error.kind,
                  reason: error.code,
                  ...(error.fieldErrors.length ? { fields: error.fieldErrors } : {}),
                },
              },
            ],
          });
      }
      return reply.status(error.status).type(PROBLEM).send(problemOf(error));
    }
    const fe = error;
    if (fe.validation) {
      const fields = fieldErrorsOfValidation(fe);
      const detail = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
      return reply
        .status(400)
        .type(PROBLEM)
        .send(problem(400, 'validation_failed', detail, fields));
    }
    const status = fe.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = (fe.code ?? 'bad_request').replace(/^FST_ERR_/, '').toLowerCase();
      if (req.url.startsWith(GRAPHQL_PATH)) {
        return reply
          .status(status)
          .type('application/json; charset=utf-8')
          .send({ errors: [{ message: fe.message, extensions: { code: 'BAD_REQUEST', reason: code } }] });
      }
      return reply
        .status(status)
        .type(PROBLEM)
        .send(problem(status, code, fe.message));
    }
    req.log.error({ err: error }, 'unexpected error');
    return reply
      .status(500)
      .type(PROBLEM)
      .send(problem(500, 'internal_error', 'Unexpected error.'));
  });

  app.setNotFoundHandler((req, reply) => {
    reply
      .status(404)
      .type(PROBLEM)
      .send(problem(404, 'route_not_found', `No route ${req.method} ${req.url.split('?')[0]}`));
  });
}

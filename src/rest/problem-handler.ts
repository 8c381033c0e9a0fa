import type { GraphQLError } from 'graphql';
import type { AppDeps } from '../deps.js';
import { problem, type FieldError } from '../errors.js';

const PROBLEM_JSON = 'application/problem+json';

/** The field a GraphQL variable-coercion message is about, e.g. Variable "$guestEmail" … */
function fieldOfMessage(message: string): string | undefined {
  return /Variable "\$(\w+)"/.exec(message)?.[1];
}

/**
 * SOFA's error handler: turns the (already masked) GraphQL errors of a REST call into one RFC 9457
 * problem. Domain errors carry their status and code; request errors (a missing or mistyped
 * parameter) are 400; anything else was masked and is 500.
 */
export function sofaErrorHandler(_deps: AppDeps) {
  // The return type is fets' Response, which the platform Response satisfies at run time.
  return (errors: ReadonlyArray<unknown>): any => {
    const graphqlErrors = errors as GraphQLError[];
    let chosen: GraphQLError | undefined;
    let status = 0;
    for (const error of graphqlErrors) {
      const ext = (error?.extensions ?? {}) as { http?: { status?: number }; code?: string };
      const s = ext.http?.status ?? (ext.code === 'INTERNAL_SERVER_ERROR' ? 500 : 400);
      if (s > status) {
        status = s;
        chosen = error;
      }
    }
    const ext = (chosen?.extensions ?? {}) as { http?: { status?: number; headers?: Record<string, string> }; reason?: string; code?: string; fields?: FieldError[] };
    const message = chosen?.message ?? 'Unexpected error.';
    let fields = ext.fields;
    if (!fields && status === 400) {
      const field = fieldOfMessage(message);
      if (field) fields = [{ field, message }];
    }
    const code = ext.reason ?? (status === 500 ? 'internal_error' : status === 400 ? 'validation_failed' : String(ext.code ?? 'error').toLowerCase());
    const body = problem(status || 500, code, status === 500 ? 'Unexpected error.' : message, fields);
    return new Response(JSON.stringify(body), {
      status: status || 500,
      headers: { 'Content-Type': PROBLEM_JSON, ...(ext.http?.headers ?? {}) },
    });
  };
}

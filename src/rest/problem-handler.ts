import type { GraphQLError } from 'graphql';
import type { AppDeps } from '../deps.js';
import { problem, type FieldError } from '../errors.js';

const PROBLEM_JSON = 'application/problem+json';

/** The field a GraphQL variable-coercion message is about, e.g. Variable "$guestEmail" … */
function fieldOfMessage(message: string): string | undefined {
  return /Variable "\$(\w+)"/.exec(message)?.[1];
}

/** A REST caller sent no variables: "Variable "$x" of required type "T!" was not provided." says "is required". */
function fieldMessage(message: string): string {
  return /^Variable "\$\w+" of required type "[^"]+" was not provided\.$/.test(message) ? 'is required' : message;
}

/**
 * SOFA's error handler: turns the (already masked) GraphQL errors of a REST call into one RFC 9457
 * problem. Domain errors carry their status and code; request errors (a missing or mistyped
 * parameter) are 400; anything else was masked and is 500.
 */
export function sofaErrorHandler(_deps: AppDeps) {
  // The return type is fets' Response, which the platform Response satisfies at run time.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- fets' Response type is not exported in a usable form
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
    let detail = message;
    if (!fields && status === 400) {
      // Variable coercion reports each missing or malformed parameter: name them all.
      const named = graphqlErrors.flatMap((e) => {
        const field = fieldOfMessage(e?.message ?? '');
        return field ? [{ field, message: fieldMessage(e.message) }] : [];
      });
      if (fieldOfMessage(message) && named.length) {
        fields = named;
        detail = named.map((f) => `${f.field}: ${f.message}`).join('; ');
      }
    }
    const code = ext.reason ?? (status === 500 ? 'internal_error' : status === 400 ? 'validation_failed' : (ext.code ?? 'error').toLowerCase());
    const body = problem(status || 500, code, status === 500 ? 'Unexpected error.' : detail, fields);
    return new Response(JSON.stringify(body), {
      status: status || 500,
      headers: { 'Content-Type': PROBLEM_JSON, ...(ext.http?.headers ?? {}) },
    });
  };
}

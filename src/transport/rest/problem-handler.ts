import type { GraphQLError } from 'graphql';
import { DomainError, problem, type FieldError, type Problem } from '../../kernel/errors.js';
import { withoutSuggestions } from '../graphql/input-rules.js';
import { causeOf, isGraphQLError } from '../graphql/error-cause.js';

// How a REST call's errors become one RFC 9457 problem. Every error is classified by what it is —
// the class of its cause (a DomainError), the stage that raised it (parameter coercion, which the
// bridge attributes to a variable itself), or a GraphQLError's extensions — never by its message.

export const PROBLEM_JSON = 'application/problem+json';

export interface RestProblem {
  status: number;
  body: Problem;
  headers: Record<string, string>;
}

/** What one execution error stands for, by its type. */
type Classified =
  | { kind: 'domain'; error: DomainError }
  /** A GraphQLError raised by the executor itself (no resolver cause): safe to show. */
  | { kind: 'request'; error: GraphQLError }
  /** Anything else: logged and masked. */
  | { kind: 'unexpected'; cause: unknown };

export function classify(error: unknown): Classified {
  const cause = causeOf(error);
  if (cause instanceof DomainError) return { kind: 'domain', error: cause };
  if (isGraphQLError(error) && (!cause || isGraphQLError(cause) || !error.path)) {
    const hasExtensions = (e: GraphQLError) => Object.keys(e.extensions ?? {}).length > 0;
    return {
      kind: 'request',
      error: isGraphQLError(cause) && !hasExtensions(error) && hasExtensions(cause) ? cause : error,
    };
  }
  return { kind: 'unexpected', cause };
}

interface Candidate {
  status: number;
  code: string;
  detail: string;
  fields?: FieldError[];
  headers: Record<string, string>;
}

function candidateOf(classified: Classified): Candidate {
  switch (classified.kind) {
    case 'domain': {
      const e = classified.error;
      return {
        status: e.status,
        code: e.code,
        detail: e.message,
        fields: e.fieldErrors.length ? e.fieldErrors : undefined,
        headers: e.headers,
      };
    }
    case 'request': {
      const ext = (classified.error.extensions ?? {}) as {
        http?: { status?: number; headers?: Record<string, string> };
        reason?: string;
        code?: string;
        fields?: FieldError[];
      };
      const status = ext.http?.status ?? (ext.code === 'INTERNAL_SERVER_ERROR' ? 500 : 400);
      const code =
        ext.reason ??
        (status === 500
          ? 'internal_error'
          : status === 400
            ? 'validation_failed'
            : (ext.code ?? 'error').toLowerCase());
      return {
        status,
        code,
        detail: withoutSuggestions(classified.error.message),
        fields: ext.fields,
        headers: ext.http?.headers ?? {},
      };
    }
    case 'unexpected':
      return { status: 500, code: 'internal_error', detail: 'Unexpected error.', headers: {} };
  }
}

/**
 * The problem of an execution's errors: the one with the highest status wins (the first of equals).
 * `onUnexpected` is told of every error that is neither a domain error nor the executor's own.
 */
export function problemOfErrors(errors: ReadonlyArray<unknown>, onUnexpected: (cause: unknown) => void): RestProblem {
  let chosen: Candidate | undefined;
  for (const error of errors) {
    const classified = classify(error);
    if (classified.kind === 'unexpected') onUnexpected(classified.cause);
    const candidate = candidateOf(classified);
    if (!chosen || candidate.status > chosen.status) chosen = candidate;
  }
  const c = chosen ?? { status: 500, code: 'internal_error', detail: 'Unexpected error.', headers: {} };
  const detail = c.status === 500 ? 'Unexpected error.' : c.detail;
  return { status: c.status, body: problem(c.status, c.code, detail, c.fields), headers: c.headers };
}

/** A 400 naming each parameter (already attributed to its variable by the bridge). */
export function parameterProblem(fields: FieldError[]): RestProblem {
  return {
    status: 400,
    body: problem(400, 'validation_failed', fields.map((f) => `${f.field}: ${f.message}`).join('; '), fields),
    headers: {},
  };
}

/** A 400 for a parameter value that could not be read at all (the scalar's own message). */
export function unreadableParameter(message: string): RestProblem {
  return { status: 400, body: problem(400, 'validation_failed', message), headers: {} };
}

import { GraphQLError } from 'graphql';
import { isBrokenConnection } from '../../kernel/db/broken-connection.js';
import { DomainError } from '../../kernel/errors.js';

/** A GraphQLError of any copy of graphql-js (its ESM and CJS builds are distinct classes; graphql-jit has its own). */
export const isGraphQLError = (value: unknown): value is GraphQLError =>
  value instanceof GraphQLError ||
  Object.prototype.toString.call(value) === '[object GraphQLError]' ||
  (value instanceof Error && value.name === 'GraphQLError');

/**
 * What an execution error wraps: the end of its `originalError` chain (executors may wrap a
 * resolver's error more than once; duck-typed, as a wrapper may come from another copy of
 * graphql-js), or undefined for an error the executor raised itself.
 */
export function causeOf(error: unknown): unknown {
  let original: unknown = isGraphQLError(error) ? (error.originalError ?? undefined) : error;
  while (
    original &&
    typeof original === 'object' &&
    'originalError' in original &&
    (original as GraphQLError).originalError
  ) {
    original = (original as GraphQLError).originalError;
  }
  return isBrokenConnection(original) ? databaseUnavailable() : original;
}

/**
 * A query whose database connection broke under it (PostgreSQL restarted, a connection was
 * ended) is not the client's fault and not a bug: 503 with Retry-After, so a client retries and
 * the pool answers from a new connection.
 */
/**
 * A statement cancelled by its statement_timeout (57014: the device pool's
 * DATABASE_DEVICE_STATEMENT_TIMEOUT_MS), or a checkout of the device pool that waited past its
 * deadline: answered 503 at once, so a door falls back to its offline policy instead of waiting.
 */
export function isDatabaseTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (error as { code?: unknown }).code === '57014' || error.message === 'timeout exceeded when trying to connect';
}

export function databaseTimeout(): DomainError {
  return new DomainError(
    'UNAVAILABLE',
    'database_timeout',
    'The database did not answer within this route’s statement timeout; retry the request',
    { headers: { 'Retry-After': '1' } },
  );
}

export function databaseUnavailable(): DomainError {
  return new DomainError(
    'UNAVAILABLE',
    'database_unavailable',
    'The database connection was interrupted; retry the request',
    { headers: { 'Retry-After': '1' } },
  );
}

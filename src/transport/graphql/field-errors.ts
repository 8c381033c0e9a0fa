import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * GraphQL over HTTP, the partial-data rule: on the GraphQL endpoint a field error (an error with a
 * `path`: not found, forbidden on one field, a conflict in one mutation, bad input to one field)
 * answers HTTP 200 with the rest of `data` and the error in `errors`, as GitHub and Shopify do.
 * Only request errors (authentication, parse, validation, variable coercion, rate limit, body too
 * large; they have no path and no data) use 4xx (parse, validation and variable errors: under
 * `Accept: application/graphql-response+json`; under application/json they keep the spec's legacy 200).
 * An unexpected error inside a resolver keeps its 500.
 *
 * The errors keep their `extensions.http.status` until here because the REST routes (SOFA) turn
 * it into the route's status; this hook runs for the GraphQL endpoint only.
 */
/** Refusals by the auth plugin (src/graphql/yoga.ts). */
const AUTH_REASONS = new Set(['missing_scope', 'unauthenticated']);

export function fieldErrorsAreOkPlugin(graphqlPath: string): Plugin {
  const withoutStatus = (error: GraphQLError, nothingPermitted: boolean): GraphQLError => {
    const http = error.extensions?.http;
    if (!error.path || !http?.status || error.extensions.code === 'INTERNAL_SERVER_ERROR') return error;
    // A key that may read none of the fields asked for gets the refusal's status (401/403), as before.
    if (nothingPermitted && AUTH_REASONS.has(String(error.extensions.reason))) return error;
    // A partial answer is a 200: no challenge goes with it (RFC 6750's challenges are for 401 and 403).
    const { status: _status, headers, ...otherHttp } = http;
    const { 'WWW-Authenticate': _challenge, ...otherHeaders } = headers ?? {};
    const restOfHttp = { ...otherHttp, ...(Object.keys(otherHeaders).length ? { headers: otherHeaders } : {}) };
    const { http: _http, ...extensions } = error.extensions;
    return new GraphQLError(error.message, {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      path: error.path,
      originalError: error.originalError,
      extensions: Object.keys(restOfHttp).length ? { ...extensions, http: restOfHttp } : extensions,
    });
  };
  /**
   * A request error (no data at all) without a status of its own, to a client that asked for
   * application/graphql-response+json first: 400, as that media type requires. Under
   * application/json such errors keep the legacy 200 that the GraphQL-over-HTTP spec recommends
   * (yoga's default; the graphql-http audit checks it).
   */
  const asBadRequest = (error: GraphQLError): GraphQLError => {
    const http = error.extensions?.http;
    if (error.path || (http?.status && !http.spec)) return error;
    return new GraphQLError(error.message, {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      originalError: error.originalError,
      extensions: { ...error.extensions, http: { ...(http?.headers ? { headers: http.headers } : {}), status: 400 } },
    });
  };
  const relax = (result: ExecutionResult, prefersGraphQLResponse: boolean): ExecutionResult => {
    const isRequestError = (!('data' in result) || result.data === undefined) && prefersGraphQLResponse;
    const authErrors = result.errors?.filter((e) => AUTH_REASONS.has(String(e.extensions?.reason)) && e.path) ?? [];
    const refusedRoots = new Set(authErrors.map((e) => e.path?.[0]));
    // Nothing permitted: every root field of the answer was refused (removed and nulled by the auth plugin).
    const nothingPermitted =
      authErrors.length > 0 &&
      Object.keys(result.data ?? {}).every((key) => refusedRoots.has(key) && result.data?.[key] === null);
    const errors = result.errors?.map((e) => (isRequestError ? asBadRequest(e) : withoutStatus(e, nothingPermitted)));
    // Untouched results are handed back as they were: yoga tells its own request errors by identity.
    return errors?.some((e, i) => e !== result.errors?.[i]) ? { ...result, errors } : result;
  };
  return {
    onResultProcess(payload) {
      const { request, result } = payload;
      if (new URL(request.url).pathname !== graphqlPath || Array.isArray(result) || Symbol.asyncIterator in result)
        return;
      const prefersGraphQLResponse = (request.headers.get('accept') ?? '')
        .trim()
        .startsWith('application/graphql-response+json');
      const relaxed = relax(result as ExecutionResult, prefersGraphQLResponse);
      if (relaxed !== result) payload.setResult(relaxed);
    },
  };
}

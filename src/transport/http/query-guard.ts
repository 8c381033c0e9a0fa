import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid, type FieldError } from '../../kernel/errors.js';
import { GRAPHQL_PATH } from '../graphql/yoga.js';
import { MAX_INPUT_DEPTH, findInputProblem, jsonTooDeep } from '../../kernel/input-guard.js';

/** GraphQL over GET carries JSON in these query parameters (GraphQL over HTTP). */
const GRAPHQL_JSON_PARAMETERS = ['variables', 'extensions'] as const;

function graphqlJsonProblem(name: string, raw: unknown): FieldError | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') return { field: name, message: 'must be given once' };
  if (jsonTooDeep(raw)) return { field: name, message: `is nested deeper than ${MAX_INPUT_DEPTH} levels` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { field: name, message: 'must be a JSON object' };
  }
  if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed)))
    return { field: name, message: 'must be a JSON object' };
  return findInputProblem(parsed, name);
}

/**
 * Query strings and path parameters of every route, checked before validation and handlers (the
 * body is checked by the JSON parser): no NUL, no lone surrogate, no empty path parameter. On GET /api/v1/graphql, the
 * `variables` and `extensions` parameters must be JSON objects and are checked the same way.
 */
export function registerQueryGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    const problem = findInputProblem(req.params, '') ?? findInputProblem(req.query, '');
    if (problem) throw invalid([problem], 'invalid_characters');
    // `/bookings/` matches `/bookings/:bookingId` with an empty id: a malformed request, not a route
    // the REST bridge should run with an empty parameter.
    const empty = Object.entries((req.params ?? {}) as Record<string, unknown>).filter(([, value]) => value === '');
    if (empty.length) throw invalid(empty.map(([name]) => ({ field: name, message: 'must not be empty' })));
    if (req.method === 'GET' && req.routeOptions.url === GRAPHQL_PATH) {
      const query = (req.query ?? {}) as Record<string, unknown>;
      const errors = GRAPHQL_JSON_PARAMETERS.flatMap((name) => graphqlJsonProblem(name, query[name]) ?? []);
      if (errors.length) throw invalid(errors);
    }
  });
}

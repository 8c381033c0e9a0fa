import { Type } from '@sinclair/typebox';

// The problem+json body (src/kernel/errors.ts `Problem`) as a JSON schema, for hand-written routes'
// fastify response schemas. The OpenAPI document shows it as components.schemas.Problem.
// fastify also serializes error replies with it, so it lists every field `problem()` writes.

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({
      description:
        'Machine-readable snake_case code, e.g. validation_failed, tenant_mismatch, missing_scope, rate_limited.',
    }),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { description: 'RFC 9457 problem details.' },
);

/** A fastify response-schema entry for a route-specific error status, e.g. `409: problemResponse('…')`. */
export function problemResponse(description: string) {
  return { description, content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } } };
}

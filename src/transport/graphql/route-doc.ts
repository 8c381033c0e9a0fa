import type { RouteDoc } from '../rest/openapi-registry.js';
import { GRAPHQL_LIMITS } from './armor.js';

const limits =
  `Documents are limited to depth ${GRAPHQL_LIMITS.maxDepth}, ${GRAPHQL_LIMITS.maxAliases} aliases, ${GRAPHQL_LIMITS.maxDirectives} directives, ` +
  `${GRAPHQL_LIMITS.maxTokens} tokens and cost ${GRAPHQL_LIMITS.maxCost}; batching is off. Each root field requires the scopes shown in the schema (@requiresScopes).`;

const RESULT = {
  type: 'object',
  properties: {
    data: {
      type: ['object', 'null'],
      description: 'The result; absent when the document was refused before execution.',
    },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          message: { type: 'string' },
          path: { type: 'array', items: { type: ['string', 'integer'] } },
          extensions: {
            type: 'object',
            properties: {
              code: {
                type: 'string',
                description: 'UNAUTHENTICATED, FORBIDDEN, BAD_USER_INPUT, NOT_FOUND, CONFLICT, RATE_LIMITED, …',
              },
              reason: { type: 'string' },
            },
          },
        },
        required: ['message'],
      },
    },
  },
};

const RESULT_EXAMPLE = {
  data: {
    booking: {
      id: '5c8e2f4a-6b1d-4a3c-9e7f-0d2b4c6e8a13',
      status: 'CONFIRMED',
      startTime: '2026-12-04T14:00:00.000Z',
      endTime: '2026-12-06T10:00:00.000Z',
    },
  },
};

// Errors on the GraphQL endpoint keep GraphQL's shape ({errors: [{message, extensions: {code}}]},
// application/json) with the HTTP status of the refusal.
const refusal = (description: string) => ({
  description: `${description} A GraphQL result with errors only.`,
  schema: RESULT,
});
const responses = {
  200: { description: 'A GraphQL result (also for documents refused by validation or the limits).', schema: RESULT },
  400: refusal(
    'Refused input (BAD_USER_INPUT): malformed JSON or parameters, unstorable characters, too deep nesting, a subscription.',
  ),
  401: refusal('Missing, unknown or revoked credential (UNAUTHENTICATED).'),
  403: refusal('A missing scope or another tenant (FORBIDDEN).'),
  429: refusal('Rate limit exceeded (RATE_LIMITED); see Retry-After.'),
  503: refusal('Overloaded, shutting down or the database connection was interrupted (UNAVAILABLE); see Retry-After.'),
};
const postResponses = {
  ...responses,
  413: refusal('The request body is larger than 1 MiB (PAYLOAD_TOO_LARGE).'),
  415: refusal('The body is not application/json.'),
};

export const GRAPHQL_POST_DOC: RouteDoc = {
  operationId: 'graphqlPost',
  summary: 'Run a GraphQL query or mutation',
  description: limits,
  tags: ['graphql'],
  body: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      variables: {
        type: ['object', 'null'],
        additionalProperties: true,
        description: 'The operation’s variables by name; values of any JSON type.',
      },
      operationName: { type: ['string', 'null'] },
      extensions: { type: ['object', 'null'], additionalProperties: true },
    },
    required: ['query'],
  },
  bodyExample: {
    query: 'query Booking($id: ID!) { booking(id: $id) { id status startTime endTime } }',
    variables: { id: '5c8e2f4a-6b1d-4a3c-9e7f-0d2b4c6e8a13' },
    operationName: 'Booking',
  },
  responses: { ...postResponses, 200: { ...postResponses[200], example: RESULT_EXAMPLE } },
};

export const GRAPHQL_GET_DOC: RouteDoc = {
  operationId: 'graphqlGet',
  summary: 'Run a GraphQL query (no mutations over GET)',
  description: limits,
  tags: ['graphql'],
  querystring: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      variables: { type: 'string', description: 'JSON-encoded variables (a JSON object).' },
      operationName: { type: 'string' },
      extensions: { type: 'string', description: 'JSON-encoded extensions (a JSON object).' },
    },
    required: ['query'],
  },
  responses: { ...responses, 200: { ...responses[200], example: RESULT_EXAMPLE } },
};

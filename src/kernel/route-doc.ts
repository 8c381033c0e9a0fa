// How a hand-written route documents itself for the OpenAPI document (src/transport/rest/openapi-registry.ts
// reads it); a kernel type so modules describe their routes without importing transport.

export type JsonSchema = Record<string, unknown>;

export interface ResponseDoc {
  description?: string;
  /** Default application/json. */
  contentType?: string;
  schema?: JsonSchema;
  /** An example body (the document generates one from the schema when absent; docs/openapi.md, "Examples"). */
  example?: unknown;
}

export interface RouteDoc {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  /** Path parameters (an object schema whose properties are the :names). */
  params?: JsonSchema;
  querystring?: JsonSchema;
  body?: JsonSchema;
  /** The body's media type; default application/json. */
  bodyContentType?: string;
  /** An example body (generated from the schema when absent). */
  bodyExample?: unknown;
  /** Success and route-specific error responses by status; common errors are added for you. */
  responses?: Record<number | string, ResponseDoc>;
}

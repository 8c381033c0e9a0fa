import { createHash } from 'node:crypto';
import { Kind, OperationTypeNode, parse, type OperationDefinitionNode } from 'graphql';

// The pure part of idempotency keys (docs/idempotency.md): which requests take a key, what a valid
// key is, what makes two requests "the same", and which answer headers are replayed.

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** How long a key and its answer are kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a running request holds its key before another may take it over (the holder died). */
export const IDEMPOTENCY_LEASE_MS = 2 * 60 * 1000;

const KEY = /^[\x20-\x7e]{1,255}$/;

/** Why `value` cannot be an idempotency key, or null. */
export function keyProblem(value: string | string[] | undefined): string | null {
  if (Array.isArray(value)) return 'must be sent once';
  if (value === undefined) return null;
  return KEY.test(value) ? null : 'must be 1 to 255 printable ASCII characters';
}

/** The documented write routes: REST POST/PATCH under /api/v1, the price preview and GraphQL (mutations only, see isMutation). */
export function takesKey(method: string, routeUrl: string | undefined, pricePreviewPath: string): boolean {
  if (method !== 'POST' && method !== 'PATCH') return false;
  if (!routeUrl) return false;
  return routeUrl.startsWith('/api/v1/') || routeUrl === pricePreviewPath;
}

/** Whether a GraphQL request body runs a mutation; a document that does not parse is not one (yoga refuses it). */
export function isMutation(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { query, operationName } = body as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return false;
  let operations: OperationDefinitionNode[];
  try {
    operations = parse(query, { noLocation: true }).definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
  } catch {
    return false;
  }
  const chosen =
    typeof operationName === 'string'
      ? operations.find((o) => o.name?.value === operationName)
      : operations.length === 1
        ? operations[0]
        : undefined;
  return chosen?.operation === OperationTypeNode.MUTATION;
}

/** JSON with object keys sorted, so the same fields in another order are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What identifies a request under a key: method, path with query, and body (for GraphQL: document, variables, operation name). */
export function fingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${url}\n${body === undefined ? '' : canonicalJson(body)}`)
    .digest('hex');
}

/**
 * Answer headers that belong to that answer and are replayed. Left out: framing, this request's
 * id, rate-limit state, CORS (it depends on the asking origin) and cookies.
 */
export function replayableHeaders(headers: Record<string, unknown>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (
      value === undefined ||
      NOT_REPLAYED.has(lower) ||
      lower.startsWith('x-ratelimit-') ||
      lower.startsWith('access-control-')
    )
      continue;
    if (Array.isArray(value)) kept[lower] = value.map(String).join(', ');
    else if (typeof value === 'string' || typeof value === 'number') kept[lower] = String(value);
  }
  return kept;
}

const NOT_REPLAYED = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'x-request-id',
  'set-cookie',
  'retry-after',
  'vary',
  REPLAYED_HEADER,
]);

/** Whether an answer is kept for replay: everything but server errors (a retry should run again). */
export function storesAnswer(statusCode: number, body: string): boolean {
  if (statusCode >= 500) return false;
  // A GraphQL answer can carry a masked unexpected error with status 200: not stored either.
  return !body.includes('"INTERNAL_SERVER_ERROR"');
}

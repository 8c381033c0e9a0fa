import type { TypedDocumentString } from '../gql/graphql';

/** Where the dashboard's GraphQL calls go: the same endpoint integrators use. */
export const GRAPHQL_URL = '/api/v1/graphql';

export interface FieldError {
  field: string;
  message: string;
}

/** The HTTP status a GraphQL error code stands for, for field errors (which answer 200). */
const STATUS_OF_CODE: Record<string, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
};

/** A refused or failed GraphQL call, with the API's own message, code and per-field errors. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly fieldErrors: FieldError[];

  constructor(message: string, status: number, code?: string, fieldErrors: FieldError[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
  }

  /** The message the API gave for one argument, e.g. `fieldError('url')`. */
  fieldError(field: string): string | undefined {
    return this.fieldErrors.find(
      (e) => e.field === field || e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`),
    )?.message;
  }
}

interface GraphQLErrorShape {
  message: string;
  extensions?: { code?: string; reason?: string; fields?: FieldError[]; http?: { status?: number } };
}

/** A GraphQL result, or problem details (401/403/429 refused before GraphQL ran). */
interface ResponseBody<T> {
  data?: T | null;
  errors?: GraphQLErrorShape[] | FieldError[];
  detail?: string;
  code?: string;
}

let csrfToken: string | null = null;

const TEST_MODE_KEY = 'portier.testMode';
/**
 * Test mode (docs/test-mode.md): every GraphQL call then sends X-Portier-Mode: test, which the
 * session resolves to the sandbox of the user's tenant. Kept in the browser across reloads.
 */
export function isTestMode(): boolean {
  try {
    return window.localStorage.getItem(TEST_MODE_KEY) === '1';
  } catch {
    return false;
  }
}

/** Switches test mode; the caller reloads so that nothing of the other mode stays on screen. */
export function setTestMode(on: boolean): void {
  try {
    if (on) window.localStorage.setItem(TEST_MODE_KEY, '1');
    else window.localStorage.removeItem(TEST_MODE_KEY);
  } catch {
    // Storage refused (private mode): the switch lasts until the reload.
  }
}
let onUnauthenticated: () => void = () => undefined;

/** The session's X-CSRF-Token header, for calls made with fetch directly (the CSV downloads). */
export function csrfHeaders(): Record<string, string> {
  return csrfToken ? { 'x-csrf-token': csrfToken } : {};
}

/** Set by the session: every state-changing call sends it as X-CSRF-Token. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when the API answers 401 (the session expired): the app returns to sign-in. */
export function setUnauthenticatedHandler(handler: () => void): void {
  onUnauthenticated = handler;
}

export async function execute<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  ...[variables]: TVariables extends Record<string, never> ? [] : [TVariables]
): Promise<TResult> {
  return executeWithHeaders(document, variables ?? {}, {});
}

/**
 * As execute, with extra request headers, e.g. an `Idempotency-Key` kept for one form's life so a
 * repeated submit is answered with the first answer instead of running twice.
 */
export async function executeWithHeaders<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables | Record<string, never>,
  extraHeaders: Record<string, string>,
): Promise<TResult> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/graphql-response+json, application/json',
    ...extraHeaders,
  };
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  if (isTestMode()) headers['x-portier-mode'] = 'test';
  const body = JSON.stringify({ query: document.toString(), variables });
  const response = await fetchRetryingOverload(GRAPHQL_URL, {
    method: 'POST',
    credentials: 'same-origin',
    headers,
    body,
  });
  return readResult<TResult>(response);
}

/** How often a request refused by load shedding (503 overloaded: nothing ran) is sent again. */
const OVERLOAD_RETRIES = 3;

/** fetch, sent again (after Retry-After) while Portier sheds load: a 503 means nothing ran. */
export async function fetchRetryingOverload(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch {
      throw new ApiError('Portier could not be reached. Check the connection and try again.', 0);
    }
    // Load shedding answers before any work is done, so even a mutation may be sent again.
    if (response.status !== 503 || attempt >= OVERLOAD_RETRIES) return response;
    const seconds = Math.min(10, Math.max(1, Number(response.headers.get('retry-after')) || 2));
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/**
 * GraphQL's own refusal of a variable ('Variable "$pricePerHour" got invalid value 1e12; Int cannot
 * represent non 32-bit signed integer value: …') as a field error a person can read; null for
 * any other message.
 */
export function variableErrorOf(message: string): FieldError[] | null {
  const match = /^Variable "\$([A-Za-z_][A-Za-z0-9_]*)" (got invalid value|of required type|of non-null type)/.exec(
    message,
  );
  if (!match) return null;
  const field = match[1];
  if (/non 32-bit signed integer|too large/i.test(message)) return [{ field, message: 'is too large' }];
  if (/cannot represent non-integer|Int cannot represent/i.test(message))
    return [{ field, message: 'must be a whole number' }];
  if (/of (required|non-null) type/.test(message) || /must not be null/.test(message))
    return [{ field, message: 'is required' }];
  if (/Expected type "DateTime"|DateTime/.test(message)) return [{ field, message: 'must be a date and time' }];
  return [{ field, message: 'has a value Portier cannot read' }];
}

/** Each field's message once (the same rule may be reported by two checks). */
export function uniqueFieldErrors(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.field}\u0000${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** "a; a; b" → "a; b": a message repeated by two checks is shown once. */
export function uniqueParts(message: string): string {
  return [...new Set(message.split('; '))].join('; ');
}

async function readResult<TResult>(response: Response): Promise<TResult> {
  let body: ResponseBody<TResult> | null;
  try {
    body = (await response.json()) as ResponseBody<TResult>;
  } catch {
    body = null;
  }
  if (response.status === 401) onUnauthenticated();
  if (body && typeof body.detail === 'string') {
    throw new ApiError(body.detail, response.status, body.code, (body.errors ?? []) as FieldError[]);
  }
  const errors = (body?.errors ?? []) as GraphQLErrorShape[];
  const first = errors[0];
  if (first) {
    const fields = uniqueFieldErrors(errors.flatMap((e) => e.extensions?.fields ?? variableErrorOf(e.message) ?? []));
    // A field error comes with HTTP 200 and partial data (GraphQL over HTTP); its code says what it was.
    const status = first.extensions?.http?.status ?? STATUS_OF_CODE[first.extensions?.code ?? ''] ?? response.status;
    const variable = variableErrorOf(first.message);
    const message = variable ? variable.map((e) => `${e.field} ${e.message}`).join('; ') : uniqueParts(first.message);
    throw new ApiError(message, variable ? 400 : status, first.extensions?.reason ?? first.extensions?.code, fields);
  }
  if (!response.ok || !body?.data) {
    throw new ApiError(`The request failed (HTTP ${response.status}).`, response.status);
  }
  return body.data;
}

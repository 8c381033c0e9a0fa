import { GraphQLError } from 'graphql';
import { bearerChallenge } from './auth/challenge.js';

// Expected outcomes are DomainErrors: a GraphQL extensions.code, an HTTP status and a
// machine-readable snake_case code. Everything else is masked and logged.

export type ErrorKind =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'UNPROCESSABLE';

export const statusOf: Record<ErrorKind, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  UNPROCESSABLE: 422,
};

export interface FieldError {
  field: string;
  message: string;
}

export class DomainError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly fieldErrors: FieldError[];
  readonly headers: Record<string, string>;

  constructor(
    kind: ErrorKind,
    code: string,
    message: string,
    options: { fieldErrors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.kind = kind;
    this.code = code;
    this.fieldErrors = options.fieldErrors ?? [];
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return statusOf[this.kind];
  }
}

export const notFound = (what: string, id?: string) =>
  new DomainError('NOT_FOUND', 'not_found', id ? `${what} ${id} was not found` : `${what} was not found`);

export const forbidden = (message: string, code = 'forbidden') => new DomainError('FORBIDDEN', code, message);

export const conflict = (code: string, message: string) => new DomainError('CONFLICT', code, message);

/**
 * 401. Without `invalidToken` the credential was missing (the bare RFC 6750 challenge); with it, a
 * credential was sent and refused (error="invalid_token" and the message as error_description).
 */
export const unauthenticated = (
  message = 'A valid API key or OAuth access token is required: send Authorization: Bearer <key or token>',
  invalidToken = false,
) =>
  new DomainError('UNAUTHENTICATED', 'unauthenticated', message, {
    headers: {
      'WWW-Authenticate': bearerChallenge(invalidToken ? { error: 'invalid_token', description: message } : {}),
    },
  });

/** One or more invalid fields; the message names them all. */
export function invalid(fieldErrors: FieldError[], code = 'validation_failed'): DomainError {
  const message = fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; ');
  return new DomainError('BAD_USER_INPUT', code, message, { fieldErrors });
}

export const invalidField = (field: string, message: string, code = 'validation_failed') =>
  invalid([{ field, message }], code);

export function toGraphQLError(error: DomainError): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: {
      code: error.kind,
      reason: error.code,
      ...(error.fieldErrors.length ? { fields: error.fieldErrors } : {}),
      http: { status: error.status, ...(Object.keys(error.headers).length ? { headers: error.headers } : {}) },
    },
  });
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: FieldError[];
}

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problem(status: number, code: string, detail: string, errors?: FieldError[]): Problem {
  return {
    type: `https://portier.dev/problems/${code.replace(/_/g, '-')}`,
    title: titles[status] ?? 'Error',
    status,
    detail,
    code,
    ...(errors && errors.length ? { errors } : {}),
  };
}

export function problemOf(error: DomainError): Problem {
  return problem(error.status, error.code, error.message, error.fieldErrors);
}

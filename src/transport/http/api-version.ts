import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../kernel/errors.js';

// The Portier-Version request header (issue #44; docs/api.md, "API versions"): a date naming a
// released API version pins the behaviour of the GraphQL endpoint, the REST API and the device API.
// Every answer says which version served it, in the same header.

/** The request and response header. */
export const VERSION_HEADER = 'Portier-Version';
const HEADER = 'portier-version';

/**
 * The released API versions, oldest first; the last is the current one, used when a request names
 * none. 2026-11-24 is release 0.1.0; 2026-12-03 is the version of everything added since, all of it
 * additive, so the two behave alike: a version is added only when a change would break a client
 * (see docs/api.md), and the code that differs asks `req.apiVersion`.
 */
export const API_VERSIONS = ['2026-11-24', '2026-12-03'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
/** The last of API_VERSIONS. */
export const CURRENT_API_VERSION = API_VERSIONS[1];

const SUPPORTED: ReadonlySet<string> = new Set(API_VERSIONS);
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** The API version this request is served with (Portier-Version, or the current one). */
    apiVersion: ApiVersion;
  }
}

/** Whether `value` is a version this server serves. */
export const isApiVersion = (value: string): value is ApiVersion => SUPPORTED.has(value);

/** The version a request names, when it is a known one; else the current one (what the answer echoes). */
export const versionEchoed = (given: string | string[] | undefined): ApiVersion =>
  typeof given === 'string' && SUPPORTED.has(given) ? (given as ApiVersion) : CURRENT_API_VERSION;

/** The 400 for a Portier-Version that is not a date, or a date that names no released version. */
export function unsupportedVersion(value: string): DomainError {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  const reason = DATE.test(value) ? 'is not a released API version' : 'is not a date (YYYY-MM-DD)';
  const supported = API_VERSIONS.join(', ');
  return new DomainError(
    'BAD_USER_INPUT',
    'unsupported_api_version',
    `${VERSION_HEADER} header "${shown}" ${reason}; supported versions: ${supported} (omit the header for the current one, ${CURRENT_API_VERSION})`,
    { fieldErrors: [{ field: VERSION_HEADER, message: `${reason}; supported versions: ${supported}` }] },
  );
}

/**
 * Reads Portier-Version on every request and echoes the version used. The common path (no header,
 * or a known one) is one property read, one Set lookup and one header: the door routes pass here too.
 * The echo is set before the check refuses, so the 400 carries the current version.
 */
export function registerApiVersion(app: FastifyInstance): void {
  app.decorateRequest('apiVersion', CURRENT_API_VERSION);
  app.addHook('onRequest', (req, reply, done) => {
    const given = req.headers[HEADER];
    if (given === undefined) {
      reply.header(HEADER, CURRENT_API_VERSION);
      return done();
    }
    if (typeof given === 'string' && SUPPORTED.has(given)) {
      req.apiVersion = given as ApiVersion;
      reply.header(HEADER, given);
      return done();
    }
    reply.header(HEADER, CURRENT_API_VERSION);
    done(unsupportedVersion(String(given)));
  });
}

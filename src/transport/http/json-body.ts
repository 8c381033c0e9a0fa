import type { FastifyInstance } from 'fastify';
import { invalid } from '../../kernel/errors.js';
import { MAX_INPUT_DEPTH, findInputProblem, jsonTooDeep } from '../../kernel/input-guard.js';

/**
 * JSON request bodies, parsed by fastify's own parser (prototype-poisoning checks included), except
 * that an empty body is no body: many HTTP clients send `Content-Type: application/json` on every
 * request, also on a DELETE or a POST that has nothing to send. Malformed JSON is still a 400.
 *
 * Every body is checked here, once for every route (REST, GraphQL, devices, the price preview):
 * nesting deeper than MAX_INPUT_DEPTH is refused before parsing (a recursive parser would overflow
 * its stack), and a string or object key PostgreSQL cannot store (NUL, a lone surrogate) is a 400
 * naming the field.
 *
 * JSON is the only body type: fastify's default `text/plain` parser is removed, so a text/plain
 * body (which a browser sends cross-site without a preflight) is refused with 415 like any other
 * type. A compressed body (Content-Encoding gzip, deflate, br, …) is not taken either: 415
 * unsupported_content_encoding, before any byte is read (instead of 400 malformed_json).
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.addHook('preParsing', async (req) => {
    const encoding = req.headers['content-encoding']?.trim().toLowerCase();
    if (!encoding || encoding === 'identity') return;
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody) return;
    throw Object.assign(new Error(`Content-Encoding ${encoding} is not supported: send the body uncompressed`), {
      statusCode: 415,
      code: 'unsupported_content_encoding',
    });
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    if (jsonTooDeep(text)) {
      return done(
        invalid([{ field: 'body', message: `is nested deeper than ${MAX_INPUT_DEPTH} levels` }], 'input_too_deep'),
        undefined,
      );
    }
    return parseJson(req, text, (error: Error | null, parsed?: unknown) => {
      if (error) return done(error, undefined);
      // Every body Portier takes is an object (REST fields, a GraphQL request, a device report).
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return done(invalid([{ field: 'body', message: 'must be a JSON object' }]), undefined);
      }
      const problem = findInputProblem(parsed, '');
      if (problem) return done(invalid([problem], 'invalid_characters'), undefined);
      return done(null, parsed);
    });
  });
}

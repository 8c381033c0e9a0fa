import type { FastifyInstance } from 'fastify';

/**
 * JSON request bodies, parsed by fastify's own parser (prototype-poisoning checks included), except
 * that an empty body is no body: many HTTP clients send `Content-Type: application/json` on every
 * request, also on a DELETE or a POST that has nothing to send. Malformed JSON is still a 400.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return parseJson(req, text, done);
  });
}

import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  fingerprint,
  isMutation,
  keyProblem,
  replayableHeaders,
  storesAnswer,
  takesKey,
} from './idempotency.rules.js';

describe('idempotency rules', () => {
  it.each([
    ['a', null],
    ['order-123 retry', null],
    ['x'.repeat(255), null],
    ['x'.repeat(256), 'must be 1 to 255 printable ASCII characters'],
    ['', 'must be 1 to 255 printable ASCII characters'],
    ['tab\there', 'must be 1 to 255 printable ASCII characters'],
    ['ünicode', 'must be 1 to 255 printable ASCII characters'],
    [['a', 'b'], 'must be sent once'],
  ] as const)('key %j → %s', (key, problem) => {
    expect(keyProblem(key as string | string[])).toBe(problem);
  });

  it('applies to REST POST/PATCH, the price preview and GraphQL, not to reads or other routes', () => {
    expect(takesKey('POST', '/api/v1/tenants/:tenantId/bookings', '/api/pricing/preview')).toBe(true);
    expect(takesKey('PATCH', '/api/v1/tenants/:tenantId/bookings/:bookingId', '/api/pricing/preview')).toBe(true);
    expect(takesKey('POST', '/api/pricing/preview', '/api/pricing/preview')).toBe(true);
    expect(takesKey('GET', '/api/v1/tenants/:tenantId/bookings', '/api/pricing/preview')).toBe(false);
    expect(takesKey('DELETE', '/api/v1/tenants/:tenantId/webhooks/:webhookId', '/api/pricing/preview')).toBe(false);
    expect(takesKey('POST', '/api/devices/:deviceId/access-check', '/api/pricing/preview')).toBe(false);
    expect(takesKey('POST', undefined, '/api/pricing/preview')).toBe(false);
  });

  it('recognises a mutation, by operation name when there are several', () => {
    expect(isMutation({ query: 'mutation { a }' })).toBe(true);
    expect(isMutation({ query: '{ a }' })).toBe(false);
    expect(isMutation({ query: 'query Q { a } mutation M { b }', operationName: 'M' })).toBe(true);
    expect(isMutation({ query: 'query Q { a } mutation M { b }', operationName: 'Q' })).toBe(false);
    expect(isMutation({ query: 'mutation {' })).toBe(false);
    expect(isMutation({})).toBe(false);
  });

  it('treats the same fields in another order as the same request', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }] })).toBe('{"a":[{"c":null,"d":2}],"b":1}');
    expect(fingerprint('POST', '/x', { a: 1, b: 2 })).toBe(fingerprint('POST', '/x', { b: 2, a: 1 }));
    expect(fingerprint('POST', '/x', { a: 1 })).not.toBe(fingerprint('POST', '/x', { a: 2 }));
    expect(fingerprint('POST', '/x', { a: 1 })).not.toBe(fingerprint('PATCH', '/x', { a: 1 }));
    expect(fingerprint('POST', '/x', { a: 1 })).not.toBe(fingerprint('POST', '/y', { a: 1 }));
  });

  it('replays the answer’s own headers, not framing, request id, rate limits, CORS or cookies', () => {
    expect(
      replayableHeaders({
        'content-type': 'application/json',
        'Content-Length': '12',
        'x-request-id': 'r',
        'x-ratelimit-remaining': '3',
        'access-control-allow-origin': '*',
        'set-cookie': ['a=b'],
        location: '/x',
      }),
    ).toEqual({ 'content-type': 'application/json', location: '/x' });
  });

  it('keeps 2xx and 4xx answers, not 5xx or masked GraphQL errors', () => {
    expect(storesAnswer(201, '{}')).toBe(true);
    expect(storesAnswer(400, '{}')).toBe(true);
    expect(storesAnswer(503, '{}')).toBe(false);
    expect(storesAnswer(200, '{"errors":[{"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { isBrokenConnection } from './broken-connection.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isBrokenConnection', () => {
  it.each([
    [
      'an administrator ended the backend (57P01)',
      withCode('57P01', 'terminating connection due to administrator command'),
      true,
    ],
    ['the server crashed (57P02)', withCode('57P02'), true],
    ['the server is starting (57P03)', withCode('57P03'), true],
    ['a connection exception (08006)', withCode('08006'), true],
    ['the socket was reset', withCode('ECONNRESET'), true],
    ['the socket was closed while writing', withCode('EPIPE'), true],
    ['the pg client lost its socket', new Error('Connection terminated unexpectedly'), true],
    [
      'the pg client refuses after a connection error',
      new Error('Client has encountered a connection error and is not queryable'),
      true,
    ],
    ['a unique violation (23505)', withCode('23505'), false],
    ['an exclusion violation (23P01)', withCode('23P01'), false],
    ['a statement timeout (57014)', withCode('57014'), false],
    ['a plain error', new Error('boom'), false],
    ['not an error', 'Connection terminated', false],
  ])('%s → %s', (_case, error, expected) => {
    expect(isBrokenConnection(error)).toBe(expected);
  });
});

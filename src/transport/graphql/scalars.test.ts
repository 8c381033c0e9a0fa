import { describe, expect, it } from 'vitest';
import { Kind } from 'graphql';
import { DateTimeScalar, EmailAddressScalar, LocalDateScalar, LocalTimeScalar, URLScalar } from './scalars.js';

// The format scalars answer exactly the string they were given (JSON values must not move when a
// String field becomes one of them) and refuse what the services would refuse.

describe('format scalars', () => {
  it('pass valid values through unchanged', () => {
    expect(LocalTimeScalar.serialize('08:00')).toBe('08:00');
    expect(LocalTimeScalar.serialize('24:00')).toBe('24:00');
    expect(LocalDateScalar.serialize('2026-12-24')).toBe('2026-12-24');
    expect(EmailAddressScalar.serialize('Ada.Lovelace+x@Example.COM')).toBe('Ada.Lovelace+x@Example.COM');
    expect(URLScalar.serialize('https://hooks.example.com')).toBe('https://hooks.example.com');
    expect(URLScalar.serialize('com.example.app:/callback')).toBe('com.example.app:/callback');
    expect(JSON.stringify(DateTimeScalar.serialize(new Date('2026-11-20T10:00:00Z')))).toBe(
      '"2026-11-20T10:00:00.000Z"',
    );
  });

  it.each([
    [LocalTimeScalar, '24:01'],
    [LocalTimeScalar, '8:00'],
    [LocalTimeScalar, '08:00:00'],
    [LocalDateScalar, '2026-02-30'],
    [LocalDateScalar, '0000-01-01'],
    [EmailAddressScalar, 'ada@'],
    [URLScalar, '/relative/path'],
    [LocalTimeScalar, 800],
  ])('%s refuses %j with a message naming the scalar', (scalar, value) => {
    expect(() => scalar.serialize(value)).toThrow(scalar.name);
    expect(() => scalar.parseValue(value)).toThrow(scalar.name);
  });

  it('read literals as strings only', () => {
    expect(LocalTimeScalar.parseLiteral({ kind: Kind.STRING, value: '09:30' })).toBe('09:30');
    expect(() => LocalTimeScalar.parseLiteral({ kind: Kind.INT, value: '930' })).toThrow('LocalTime must be a string');
  });

  it('carry graphql-scalars’ JSON Schemas for the OpenAPI document (LocalTime’s allows 24:00)', () => {
    expect(EmailAddressScalar.extensions.jsonSchema).toMatchObject({ type: 'string', format: 'email' });
    expect(URLScalar.extensions.jsonSchema).toMatchObject({ type: 'string', format: 'uri' });
    const pattern = new RegExp((LocalTimeScalar.extensions.jsonSchema as { pattern: string }).pattern);
    expect(['00:00', '23:59', '24:00'].every((v) => pattern.test(v))).toBe(true);
    expect(['24:01', '7:00'].some((v) => pattern.test(v))).toBe(false);
  });
});

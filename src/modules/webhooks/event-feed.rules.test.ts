import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../../kernel/paging.js';
import { afterOf, cursorOf, typesOf, typesProblem } from './event-feed.rules.js';

describe('typesOf', () => {
  it.each([
    [['booking.created'], ['booking.created']],
    [['booking.created,device.offline'], ['booking.created', 'device.offline']],
    [
      ['booking.created, device.offline', 'booking.created'],
      ['booking.created', 'device.offline'],
    ],
    [['', ' , ', 'device.online,'], ['device.online']],
    [[], []],
  ])('%j → %j', (items, types) => {
    expect(typesOf(items)).toEqual(types);
  });
});

describe('typesProblem', () => {
  it.each([
    [['booking.created'], null],
    [['booking.created,booking.cancelled', 'webhook.disabled'], null],
    [['booking.nope'], /^unknown event type "booking\.nope"; known: booking\.created, /],
    [['a,b', 'booking.created'], /^unknown event types "a", "b"; known: /],
    [['webhook.test'], /^unknown event type "webhook\.test"/],
    ['booking.created', /^must be a list of event types/],
    [[1], /^must be a list of event types/],
  ])('%j → %s', (value, problem) => {
    const found = typesProblem(value);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });
});

describe('afterOf', () => {
  it('reads its own cursors back', () => {
    const position = { xactId: '18446744073709551615', seq: '9223372036854775807' };
    expect(afterOf(cursorOf(position))).toEqual({ position });
  });

  it('takes an event id, in either case', () => {
    expect(afterOf('3F6C2A1E-8B4D-4C7A-9E21-5D0B7F3A9C64')).toEqual({
      eventId: '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a9c64',
    });
  });

  it.each([
    'garbage!',
    '',
    encodeCursor('delivery', ['2026-11-24T10:00:00.000000Z', '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a9c64']),
    encodeCursor('event', ['12']),
    encodeCursor('event', ['-1', '2']),
    encodeCursor('event', ['01', '2']),
    encodeCursor('event', ['1', '2', '3']),
    encodeCursor('event', ['123456789012345678901', '2']),
    encodeCursor('event', ['18446744073709551616', '2']),
    encodeCursor('event', ['1', '9223372036854775808']),
  ])('refuses %j, naming after', (after) => {
    expect(() => afterOf(after)).toThrow(/^after: is neither a cursor/);
  });
});

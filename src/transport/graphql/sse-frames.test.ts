import { describe, expect, it } from 'vitest';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { getSSEProcessor } from 'graphql-yoga';
import { eventStream, frameOf } from './sse-frames.js';

// The event stream says what yoga's own SSE processor says, byte for byte once read, for every kind
// of result; and a result object is serialised once.

async function* once(result: ExecutionResult) {
  yield result;
}

const fetchAPI = { ReadableStream, Response, TextEncoder } as never;

const cases: [string, () => ExecutionResult][] = [
  ['data', () => ({ data: { bookingChanged: { eventId: 'e1', type: 'booking.created' } } })],
  ['null data', () => ({ data: null })],
  [
    'an error with the extensions that steer the server',
    () => ({
      data: { x: null },
      errors: [
        new GraphQLError('Nope', {
          path: ['x'],
          extensions: { code: 'FORBIDDEN', http: { status: 403 }, unexpected: true },
        }),
      ],
    }),
  ],
  [
    'an error with only server extensions',
    () => ({ errors: [new GraphQLError('Unexpected error.', { extensions: { http: { status: 500 } } })] }),
  ],
  ['result extensions', () => ({ data: { a: 1 }, extensions: { http: { status: 200 }, cost: 3 } })],
  ['only http extensions', () => ({ data: { a: 1 }, extensions: { http: { status: 200 } } })],
  ['strings to escape', () => ({ data: { s: 'line\nbreak "quoted" \u2028 é \ud83d\ude00' } })],
];

describe('subscription event stream', () => {
  it.each(cases)('writes %s as yoga does', async (_, make) => {
    const ours = await eventStream(once(make()), fetchAPI).text();
    const yogas = await (getSSEProcessor()(once(make()) as never, fetchAPI, 'text/event-stream') as Response).text();
    expect(ours).toBe(yogas);
  });

  it('answers with the status and headers yoga does', () => {
    const ours = eventStream(once({ data: {} }), fetchAPI);
    const yogas = getSSEProcessor()(once({ data: {} }) as never, fetchAPI, 'text/event-stream') as Response;
    expect(ours.status).toBe(yogas.status);
    expect(Object.fromEntries(ours.headers)).toEqual(Object.fromEntries(yogas.headers));
    void ours.body?.cancel();
    void yogas.body?.cancel();
  });

  it('makes one frame per result object', () => {
    const result = { data: { a: 1 } };
    expect(frameOf(result)).toBe(frameOf(result));
    expect(frameOf({ data: { a: 1 } })).not.toBe(frameOf(result));
  });
});

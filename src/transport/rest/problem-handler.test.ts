import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DomainError, notFound, toGraphQLError } from '../../kernel/errors.js';
import { problemOfErrors } from './problem-handler.js';

// REST errors are classified by what they are, never by their text: a message that reads like a
// graphql-js variable error ('Variable "$x" …', which the SOFA-era handler parsed for a field name)
// is only a message.

const TRIGGER = 'Variable "$guestEmail" of required type "String!" was not provided.';
/** A resolver's error as graphql-jit reports it: a GraphQLError at a path, wrapping the cause. */
const atPath = (cause: Error) => new GraphQLError(cause.message, { path: ['createBooking'], originalError: cause });

describe('problemOfErrors', () => {
  it('takes a domain error whose message reads like a variable error as the domain error it is', () => {
    const unexpected: unknown[] = [];
    const result = problemOfErrors([atPath(new DomainError('BAD_USER_INPUT', 'odd_input', TRIGGER))], (c) =>
      unexpected.push(c),
    );
    expect(result).toEqual({
      status: 400,
      headers: {},
      body: {
        type: 'https://portier.dev/problems/odd-input',
        title: 'Bad Request',
        status: 400,
        detail: TRIGGER,
        code: 'odd_input',
      },
    });
    expect(unexpected).toEqual([]);
  });

  it('masks an unexpected error whatever its message says, and reports it', () => {
    const cause = new Error(TRIGGER);
    const unexpected: unknown[] = [];
    const result = problemOfErrors([atPath(cause)], (c) => unexpected.push(c));
    expect(result.status).toBe(500);
    expect(result.body).toEqual({
      type: 'https://portier.dev/problems/internal-error',
      title: 'Internal Server Error',
      status: 500,
      detail: 'Unexpected error.',
      code: 'internal_error',
    });
    expect(unexpected).toEqual([cause]);
  });

  it("takes the executor's own error (no cause) as a 400 with its message, naming no field", () => {
    const result = problemOfErrors(
      [new GraphQLError(TRIGGER, { path: ['bookingPage', 'bookings', 0, 'id'] })],
      () => undefined,
    );
    expect(result.body).toEqual({
      type: 'https://portier.dev/problems/validation-failed',
      title: 'Bad Request',
      status: 400,
      detail: TRIGGER,
      code: 'validation_failed',
    });
  });

  it('keeps a domain error’s fields, headers and code, and the highest status wins', () => {
    const fields = new DomainError('BAD_USER_INPUT', 'validation_failed', 'guestEmail: must be an email', {
      fieldErrors: [{ field: 'guestEmail', message: 'must be an email' }],
    });
    const result = problemOfErrors(
      [atPath(fields), atPath(notFound('Booking', 'b-1')), atPath(new DomainError('NOT_FOUND', 'second', 'later 404'))],
      () => undefined,
    );
    expect(result.status).toBe(404);
    expect(result.body.detail).toBe('Booking b-1 was not found');
    const auth = problemOfErrors(
      [
        atPath(
          new DomainError('UNAUTHENTICATED', 'unauthenticated', 'no', { headers: { 'WWW-Authenticate': 'Bearer' } }),
        ),
      ],
      () => undefined,
    );
    expect(auth.headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    const only = problemOfErrors([atPath(fields)], () => undefined);
    expect(only.body.errors).toEqual([{ field: 'guestEmail', message: 'must be an email' }]);
  });

  it('finds the cause through wrappers (an error already mapped for GraphQL included)', () => {
    const cause = new DomainError('CONFLICT', 'slot_taken', 'The slot is taken');
    const wrapped = new GraphQLError('outer', { path: ['x'], originalError: toGraphQLError(cause) });
    expect(problemOfErrors([wrapped], () => undefined).body).toMatchObject({
      status: 409,
      code: 'slot_taken',
      detail: 'The slot is taken',
    });
  });
});

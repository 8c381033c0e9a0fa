import { describe, expect, it } from 'vitest';
import { DomainError } from '../../kernel/errors.js';
import { parseCreateWebhook } from './webhooks.commands.js';

const valid = {
  url: 'https://hooks.example.com/portier',
  events: ['booking.created'],
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
};

/** The fields a refused subscription names. */
function refusedFields(input: unknown): string[] {
  try {
    parseCreateWebhook(input);
  } catch (error) {
    if (error instanceof DomainError) return error.fieldErrors.map((e) => e.field);
    throw error;
  }
  throw new Error('the subscription was accepted');
}

describe('parseCreateWebhook', () => {
  it('accepts a valid subscription and drops duplicate events', () => {
    const command = parseCreateWebhook({
      ...valid,
      events: ['booking.created', 'booking.cancelled', 'booking.created'],
    });
    expect(command.events).toEqual(['booking.created', 'booking.cancelled']);
  });

  it.each([
    [{ url: 'not a url' }, 'url'],
    [{ url: '/relative/path' }, 'url'],
    [{ url: 'ftp://example.com/x' }, 'url'],
    [{ url: 'javascript:alert(1)' }, 'url'],
    [{ url: 'https://example.com/x#frag' }, 'url'],
    [{ url: `https://example.com/${'x'.repeat(2048)}` }, 'url'],
    [{ url: 42 }, 'url'],
    [{ events: [] }, 'events'],
    [{ events: 'booking.created' }, 'events'],
    [{ events: ['booking.updated'] }, 'events'],
    [{ events: ['webhook.test'] }, 'events'],
    [{ secret: 'too-short' }, 'secret'],
    [{ secret: undefined }, 'secret'],
  ])('refuses %j naming %s', (override, field) => {
    expect(refusedFields({ ...valid, ...override })).toEqual([field]);
  });

  it('names every invalid field at once', () => {
    expect(refusedFields({ url: 'nope', events: ['x'], secret: '' })).toEqual(['url', 'events', 'secret']);
  });
});

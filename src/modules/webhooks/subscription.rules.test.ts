import { describe, expect, it } from 'vitest';
import { checkSubscription } from './subscription.rules.js';

const valid = { url: 'https://hooks.example.com/portier', events: ['booking.created'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };

describe('checkSubscription', () => {
  it('accepts a valid subscription and drops duplicate events', () => {
    const { value, errors } = checkSubscription({ ...valid, events: ['booking.created', 'booking.cancelled', 'booking.created'] });
    expect(errors).toEqual([]);
    expect(value?.events).toEqual(['booking.created', 'booking.cancelled']);
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
    const { value, errors } = checkSubscription({ ...valid, ...override });
    expect(value).toBeUndefined();
    expect(errors.map((e) => e.field)).toEqual([field]);
  });

  it('names every invalid field at once', () => {
    expect(checkSubscription({ url: 'nope', events: ['x'], secret: '' }).errors.map((e) => e.field)).toEqual(['url', 'events', 'secret']);
  });
});

import type { FieldError } from '../../errors.js';
import { EVENT_TYPES } from './outbox.js';
import { secretProblem } from './signing.js';

// Field checks of a subscription, without I/O (the SSRF check of the host is separate: it resolves names).

export const MAX_URL_LENGTH = 2048;

export interface SubscriptionInput {
  url: unknown;
  events: unknown;
  secret: unknown;
}

export interface CheckedSubscription {
  url: URL;
  events: string[];
  secret: string;
}

export function checkSubscription(input: SubscriptionInput): { value?: CheckedSubscription; errors: FieldError[] } {
  const errors: FieldError[] = [];
  let url: URL | undefined;
  if (typeof input.url !== 'string' || input.url.length > MAX_URL_LENGTH) {
    errors.push({ field: 'url', message: `must be an absolute http(s) URL of at most ${MAX_URL_LENGTH} characters` });
  } else {
    try {
      url = new URL(input.url);
    } catch {
      errors.push({ field: 'url', message: 'must be an absolute http(s) URL, such as https://example.com/webhooks' });
    }
    if (url && url.protocol !== 'http:' && url.protocol !== 'https:') {
      errors.push({ field: 'url', message: `must use http or https, not ${url.protocol.replace(/:$/, '')}` });
      url = undefined;
    } else if (url && (!url.hostname || input.url.includes('#'))) {
      errors.push({ field: 'url', message: url.hostname ? 'must not have a fragment (#…)' : 'must name a host' });
      url = undefined;
    }
  }

  const known = EVENT_TYPES as readonly string[];
  let events: string[] | undefined;
  if (!Array.isArray(input.events) || input.events.length === 0) {
    errors.push({ field: 'events', message: `must be a non-empty list of event types: ${known.join(', ')}` });
  } else {
    const unknown = input.events.filter((e) => typeof e !== 'string' || !known.includes(e));
    if (unknown.length) {
      errors.push({ field: 'events', message: `unknown event type ${unknown.map((e) => JSON.stringify(e)).join(', ')}; known: ${known.join(', ')}` });
    } else {
      events = [...new Set(input.events as string[])];
    }
  }

  const secretError = secretProblem(input.secret);
  if (secretError) errors.push({ field: 'secret', message: secretError });

  if (errors.length || !url || !events) return { errors };
  return { value: { url, events, secret: input.secret as string }, errors };
}

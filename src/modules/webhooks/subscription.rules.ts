import { EVENT_TYPES } from './outbox.js';

// Field rules of a subscription, without I/O (the SSRF check of the host is separate: it resolves
// names); webhooks.commands.ts builds the commands' schemas and messages from them.

export const MAX_URL_LENGTH = 2048;

/** The URL a subscription's `url` names, or why it is refused. */
export function urlOf(value: unknown): { url: URL } | { error: string } {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH)
    return { error: `must be an absolute http(s) URL of at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: 'must be an absolute http(s) URL, such as https://example.com/webhooks' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { error: `must use http or https, not ${url.protocol.replace(/:$/, '')}` };
  if (!url.hostname || value.includes('#'))
    return { error: url.hostname ? 'must not have a fragment (#…)' : 'must name a host' };
  return { url };
}

/** Why a subscription's `events` is refused (empty, not a list, an unknown type), or null. */
export function eventsProblem(value: unknown): string | null {
  const known = EVENT_TYPES as readonly string[];
  if (!Array.isArray(value) || value.length === 0)
    return `must be a non-empty list of event types: ${known.join(', ')}`;
  const unknown = value.filter((e) => typeof e !== 'string' || !known.includes(e));
  if (unknown.length)
    return `unknown event type ${unknown.map((e) => JSON.stringify(e)).join(', ')}; known: ${known.join(', ')}`;
  return null;
}

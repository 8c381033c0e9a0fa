import { describe, expect, it } from 'vitest';
import { isOwnOrigin } from './origin.js';

const own = { publicUrl: 'https://portier.example', requestOrigin: 'http://127.0.0.1:3000' };

describe('isOwnOrigin', () => {
  it.each([
    [{ origin: 'https://portier.example' }, true],
    [{ origin: 'https://portier.example:443' }, true],
    [{ origin: 'http://127.0.0.1:3000' }, true],
    [{ origin: 'http://portier.example' }, false],
    [{ origin: 'https://portier.example:8443' }, false],
    [{ origin: 'http://127.0.0.1:3001' }, false],
    [{ origin: 'https://evil.example' }, false],
    [{ origin: 'https://portier.example.evil.example' }, false],
    [{ origin: 'not a url' }, false],
    [{ origin: 'null' }, false],
    [{ origin: 'null', secFetchSite: 'cross-site' }, false],
    [{ origin: 'null', secFetchSite: 'same-origin' }, true],
    [{ origin: 'https://evil.example', secFetchSite: 'same-origin' }, false],
    [{ secFetchSite: 'same-origin' }, true],
    [{ secFetchSite: 'same-site' }, false],
    [{ secFetchSite: 'cross-site' }, false],
    [{ secFetchSite: 'none' }, false],
    [{}, true],
  ])('%j → %s', (headers, expected) => {
    expect(isOwnOrigin(headers, own)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { logoProblem, originProblem, slugProblem, venueTextProblem } from './booking-page.rules.js';

describe('slugProblem', () => {
  it.each([
    ['sportpark', true],
    ['sportpark-mitte-2', true],
    ['a', true],
    ['a'.repeat(48), true],
    ['a'.repeat(49), false],
    ['-a', false],
    ['a-', false],
    ['Sportpark', false],
    ['sport park', false],
    ['sport_park', false],
    ['', false],
    ['ä', false],
  ])('%j accepted: %s', (slug, ok) => expect(slugProblem(slug) === undefined).toBe(ok));
});

describe('originProblem', () => {
  it.each([
    ['https://www.example.com', true],
    ['https://example.com:8443', true],
    ['http://localhost:5173', true],
    ['http://127.0.0.1:8080', true],
    ['http://[::1]:3000', true],
    ['https://xn--mnchen-3ya.de', true],
    ['http://example.com', false],
    ['https://example.com/', false],
    ['https://example.com/a', false],
    ['https://Example.com', false],
    ['https://example.com:443', false],
    ['https://a@example.com', false],
    ['https://münchen.de', false],
    ['file:///etc/passwd', false],
    ['data:text/html,x', false],
    ['null', false],
    ['', false],
  ])('%j accepted: %s', (origin, ok) => expect(originProblem(origin) === undefined).toBe(ok));
});

describe('logoProblem', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]).toString('base64');
  it.each([
    [`data:image/png;base64,${png}`, undefined],
    [`data:image/jpeg;base64,${png}`, 'is not a JPEG image (its bytes say otherwise)'],
    [
      `data:image/svg+xml;base64,${png}`,
      'must be a PNG, JPEG or WebP image: SVG is not accepted (it can carry script)',
    ],
    [`data:image/png;base64,${png.slice(1)}`, expect.stringMatching(/base64-encoded/)],
    [`data:image/png,${png}`, expect.stringMatching(/base64-encoded/)],
    ['data:text/html;base64,PHNjcmlwdD4=', 'must be a PNG, JPEG or WebP image, got text/html'],
  ])('%j', (logo, problem) => expect(logoProblem(logo)).toEqual(problem));
});

describe('venueTextProblem', () => {
  it.each([
    ['Hi\nyou\tok', undefined],
    ['Grüße 👋', undefined],
    ['x\u0008', 'must be plain text (no control or text-direction characters)'],
    ['x\u202Ey', 'must be plain text (no control or text-direction characters)'],
    ['👋'.repeat(5), undefined], // counted in UTF-16 units, as the browser's maxLength counts
    ['👋'.repeat(6), 'must be at most 10 characters'],
  ])('%j', (text, problem) => expect(venueTextProblem(text, 10)).toEqual(problem));
});

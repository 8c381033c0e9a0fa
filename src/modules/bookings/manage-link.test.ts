import { describe, expect, it } from 'vitest';
import { ServerSecret } from '../../kernel/crypto.js';
import { bookingIdOfManageToken, isManageToken, manageToken, manageUrl } from './manage-link.js';

const secret = new ServerSecret('a-test-secret-of-enough-length');
const other = new ServerSecret('another-secret-of-enough-length');
const id = '0b6c3a52-7f7e-4d8e-9a39-2f1f4c1e9d01';

describe('manage link', () => {
  it('names its booking and verifies for its version only', () => {
    const token = manageToken(secret, id, 1);
    expect(token).toMatch(/^[A-Za-z0-9_-]{54}$/);
    expect(bookingIdOfManageToken(token)).toBe(id);
    expect(isManageToken(secret, token, id, 1)).toBe(true);
    expect(isManageToken(secret, token, id, 2)).toBe(false);
    expect(isManageToken(other, token, id, 1)).toBe(false);
    expect(manageUrl('https://p.example', secret, id, 1)).toBe(`https://p.example/b/${token}`);
  });

  it.each([
    ['', undefined],
    ['short', undefined],
    ['x'.repeat(54), 'c71c71c7-1c71-c71c-71c7-1c71c71c71c7'],
    ['!'.repeat(54), undefined],
    [`${'A'.repeat(54)}\u0000`, undefined],
    ['\uD800'.repeat(54), undefined],
  ])('reads %j as %j', (token, expected) => {
    expect(bookingIdOfManageToken(token)).toBe(expected);
  });

  it('refuses a token for another booking', () => {
    const token = manageToken(secret, id, 1);
    const forged = `${manageToken(secret, '11111111-2222-4333-8444-555555555555', 1).slice(0, 22)}${token.slice(22)}`;
    const forgedId = bookingIdOfManageToken(forged) ?? '';
    expect(isManageToken(secret, forged, forgedId, 1)).toBe(false);
  });
});

import { randomInt } from 'node:crypto';

// Activation codes are typed in by an installer, so they use Crockford's base32 (no I, L, O, U)
// in dash-separated groups, and input is forgiving: case, dashes, spaces and the look-alikes
// O→0, I/L→1 do not matter. 28 symbols of 5 bits = 140 bits of randomness.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const SYMBOLS = 28;
const GROUP = 4;

export function generateActivationCode(): string {
  let code = '';
  for (let i = 0; i < SYMBOLS; i += 1) {
    if (i > 0 && i % GROUP === 0) code += '-';
    code += ALPHABET[randomInt(ALPHABET.length)];
  }
  return code;
}

/** The canonical form that is hashed, or undefined when the input cannot be a code. */
export function normalizeActivationCode(input: string): string | undefined {
  const canonical = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (canonical.length !== SYMBOLS) return undefined;
  for (const symbol of canonical) if (!ALPHABET.includes(symbol)) return undefined;
  return canonical;
}

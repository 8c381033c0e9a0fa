import { randomInt } from 'node:crypto';

// Activation codes are typed in by an installer, so they use Crockford's base32 (no I, L, O, U)
// in dash-separated groups, and input is forgiving: case, dashes, spaces and the look-alikes
// O→0, I/L→1 do not matter. 28 symbols of 5 bits = 140 bits of randomness.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const SYMBOLS = 28;
const GROUP = 4;

/** A fresh code as shown to the installer (grouped) and in the canonical form that is hashed. */
export function newActivationCode(): { shown: string; canonical: string } {
  let canonical = '';
  for (let i = 0; i < SYMBOLS; i += 1) canonical += ALPHABET[randomInt(ALPHABET.length)];
  const groups = canonical.match(new RegExp(`.{1,${GROUP}}`, 'g')) ?? [];
  return { shown: groups.join('-'), canonical };
}

export function generateActivationCode(): string {
  return newActivationCode().shown;
}

/** The canonical form that is hashed, or undefined when the input cannot be a code. */
export function normalizeActivationCode(input: string): string | undefined {
  const canonical = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (canonical.length !== SYMBOLS) return undefined;
  for (const symbol of canonical) if (!ALPHABET.includes(symbol)) return undefined;
  return canonical;
}

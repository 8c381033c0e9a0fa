import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** Algorithm.Argon2id (a const enum, which verbatimModuleSyntax cannot import). */
const ARGON2ID = 2 satisfies Algorithm.Argon2id;

export const PASSWORD_MIN_LENGTH = 12;
/** Argon2 hashes any length, but a megabyte "password" is a cheap way to burn CPU. */
export const PASSWORD_MAX_LENGTH = 1024;

/** Why a new password is refused, or null. */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string') return 'must be a string';
  // Counted in code points, not UTF-16 units: an emoji is one character of the twelve.
  // eslint-disable-next-line @typescript-eslint/no-misused-spread
  if ([...password].length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  return null;
}

/** Argon2id with the binding's defaults (m = 19 MiB, t = 2, p = 1: OWASP's recommendation). */
export function hashPassword(password: string): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- a const enum of the binding, which isolatedModules cannot import as a value
  return hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (password.length > PASSWORD_MAX_LENGTH) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Spends the time a real check takes, for an email no user has: the answer and its timing do not
 * tell whether the account exists. Always false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword('portier-dummy-password-for-unknown-accounts');
  await verifyPassword(await dummy, password);
  return false;
}

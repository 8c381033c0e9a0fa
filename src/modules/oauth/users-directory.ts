import type { AppDeps } from '../../deps.js';
import type { UserDirectory } from './directory.js';

/** Until the users module lands, nobody can sign in. */
export function usersDirectory(_deps: AppDeps): UserDirectory {
  return {
    fromSession: () => Promise.resolve(null),
    signIn: () => Promise.resolve({ ok: false, message: 'Signing in is not available yet' }),
    find: () => Promise.resolve(null),
  };
}

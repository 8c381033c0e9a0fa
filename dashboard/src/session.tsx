import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { setCsrfToken, setUnauthenticatedHandler } from './api/client';
import {
  allows,
  currentSession,
  signIn as requestSignIn,
  signOut as requestSignOut,
  type Session,
} from './api/session';

type SessionState =
  { status: 'loading' } | { status: 'signedOut'; error?: unknown } | { status: 'signedIn'; session: Session };

interface SessionApi {
  state: SessionState;
  signIn: (email: string, password: string) => Promise<void>;
  signOut: (everywhere?: boolean) => Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const queryClient = useQueryClient();

  const adopt = useCallback((session: Session | null) => {
    setCsrfToken(session?.csrfToken ?? null);
    setState(session ? { status: 'signedIn', session } : { status: 'signedOut' });
  }, []);

  useEffect(() => {
    setUnauthenticatedHandler(() => {
      queryClient.clear();
      adopt(null);
    });
    currentSession().then(adopt, (error: unknown) => setState({ status: 'signedOut', error }));
  }, [adopt, queryClient]);

  const api = useMemo<SessionApi>(
    () => ({
      state,
      signIn: async (email, password) => {
        const session = await requestSignIn(email, password);
        queryClient.clear();
        adopt(session);
      },
      signOut: async (everywhere = false) => {
        if (state.status === 'signedIn') await requestSignOut(state.session.csrfToken, everywhere);
        queryClient.clear();
        adopt(null);
      },
    }),
    [state, adopt, queryClient],
  );

  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

export function useSessionApi(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error('useSessionApi outside SessionProvider');
  return api;
}

/** The signed-in session (pages under the shell only render when there is one). */
export function useSession(): Session & { can(scope: string): boolean } {
  const { state } = useSessionApi();
  if (state.status !== 'signedIn') throw new Error('useSession without a session');
  return { ...state.session, can: (scope: string) => allows(state.session.scopes, scope) };
}

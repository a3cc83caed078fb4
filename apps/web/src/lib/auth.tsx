import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Role } from '@bathylog/shared';
import { login as loginCall, useProfileQuery, type LoginInput, type Profile } from '../api/auth';
import {
  clearSession,
  onSessionEnded,
  onTokenReplaced,
  readSession,
  writeSession,
  type StoredSession,
} from './session';

export interface Auth {
  /** A stored token counts as authenticated before any call returns (client-behaviour §2.5). */
  isAuthenticated: boolean;
  token: string | null;
  userId: string | null;
  /** From GET auth/profile; null until it arrives. */
  profile: Profile | null;
  /** True until the profile (roles, full name) is known. */
  profileLoading: boolean;
  roles: readonly string[];
  hasRole: (...roles: Role[]) => boolean;
  /** Guests are recognised by the full name Guest, as in the original. */
  isGuest: boolean;
  /** Logs in (password or loginToken) and stores the session; throws ApiError. */
  login: (input: LoginInput) => Promise<void>;
  logout: () => void;
}

const AuthContext = createContext<Auth | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<StoredSession | null>(() => readSession());
  const token = session?.token ?? null;
  const profileQuery = useProfileQuery(token);
  const profile = profileQuery.data ?? null;

  const login = useCallback(
    async (input: LoginInput) => {
      const res = await loginCall(input);
      writeSession({ token: res.token, id: res.id });
      // Nothing cached under the previous user may leak into the new session.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'client_settings' });
      setSession({ token: res.token, id: res.id });
    },
    [queryClient],
  );

  const logout = useCallback(() => {
    clearSession();
    setSession(null);
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'client_settings' });
  }, [queryClient]);

  // A renewed token replaces the old one without the user noticing; an expired or revoked
  // session logs out (the login screen shows why). The offline console keeps its queue.
  useEffect(() => {
    const offRenew = onTokenReplaced((renewed) =>
      setSession((current) => (current ? { ...current, token: renewed } : current)),
    );
    const offEnded = onSessionEnded(() => logout());
    return () => {
      offRenew();
      offEnded();
    };
  }, [logout]);

  const value = useMemo<Auth>(() => {
    const roles = profile?.roles ?? [];
    return {
      isAuthenticated: !!token,
      token,
      userId: session?.id ?? null,
      profile,
      profileLoading: !!token && !profile,
      roles,
      hasRole: (...wanted: Role[]) => wanted.some((r) => roles.includes(r)),
      isGuest: profile?.fullname === 'Guest',
      login,
      logout,
    };
  }, [token, session?.id, profile, login, logout]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside AuthProvider');
  return auth;
}

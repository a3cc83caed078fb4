import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { scopesForRoles, type Role } from '@bathylog/shared';
import { rememberTemplateReader } from '../api/early-gets';
import { login as loginCall, logout as logoutCall, useProfileQuery, type LoginInput, type Profile } from '../api/auth';
import { adoptSession, clearSession, onSessionEnded, readSession, sessionKeyOf, type StoredSession } from './session';

export interface Auth {
  /** A stored session counts as authenticated before any call returns, so a reload does not flash /login. */
  isAuthenticated: boolean;
  /**
   * Changes with each login (not with a renewal), so what belongs to a session (the websocket's
   * user, the profile) follows a new one. Not a secret: the token itself stays in its cookie.
   */
  sessionKey: string | null;
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

/** The last logout call (POST auth/logout), which a login waits for. */
let pendingLogout: Promise<void> = Promise.resolve();

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<StoredSession | null>(() => readSession());
  const [logins, setLogins] = useState(0);
  const sessionKey = session ? sessionKeyOf(session, logins) : null;
  const profileQuery = useProfileQuery(sessionKey);
  const profile = profileQuery.data ?? null;

  const login = useCallback(
    async (input: LoginInput) => {
      // A logout still on its way would clear the cookies of this new session.
      await pendingLogout;
      const res = await loginCall(input);
      // Nothing cached under the previous user may leak into the new session.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'client_settings' });
      setLogins((n) => n + 1);
      setSession(adoptSession(res));
    },
    [queryClient],
  );

  const logout = useCallback(() => {
    clearSession();
    // The server clears the HttpOnly session cookie; offline, it stays until the session expires,
    // but without the `id` cookie this client no longer uses it.
    pendingLogout = logoutCall().catch(() => undefined);
    setSession(null);
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'client_settings' });
  }, [queryClient]);

  // The next page load asks early for the templates only when these roles read them.
  useEffect(() => {
    if (session && profile) {
      rememberTemplateReader(session.id, scopesForRoles(profile.roles).includes('read_event_templates'));
    }
  }, [session, profile]);

  // An expired or revoked session logs out (the login screen shows why). The offline console
  // keeps its queue.
  useEffect(() => onSessionEnded(() => logout()), [logout]);

  const value = useMemo<Auth>(() => {
    const roles = profile?.roles ?? [];
    return {
      isAuthenticated: !!session,
      sessionKey,
      userId: session?.id ?? null,
      profile,
      profileLoading: !!session && !profile,
      roles,
      hasRole: (...wanted: Role[]) => wanted.some((r) => roles.includes(r)),
      isGuest: profile?.fullname === 'Guest',
      login,
      logout,
    };
  }, [session, sessionKey, profile, login, logout]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside AuthProvider');
  return auth;
}

import { getCookie, removeCookie, setCookie } from './cookies';

/**
 * The session lives in two cookies, `token` and `id` (seed 000 §3-4, client-behaviour §2.5), so a
 * reload keeps the user logged in and the server can also read the token from the cookie.
 */
export interface StoredSession {
  token: string;
  id: string;
}

/**
 * Kept in memory too: where the browser refuses the cookie (an embedding frame of another site
 * over plain http), the session still lasts for the page's lifetime.
 */
let memory: StoredSession | null = null;

export function readSession(): StoredSession | null {
  const token = getCookie('token');
  if (!token) return memory;
  return { token, id: getCookie('id') ?? '' };
}

export function writeSession(session: StoredSession): void {
  memory = session;
  setCookie('token', session.token);
  setCookie('id', session.id);
}

export function clearSession(): void {
  memory = null;
  removeCookie('token');
  removeCookie('id');
}

/** The bearer token for API calls, read for each call. */
export function currentToken(): string | null {
  return getCookie('token') ?? memory?.token ?? null;
}

import { getCookie, removeCookie, setCookie } from './cookies';

/**
 * The session lives in two cookies, `token` and `id` (seed 000 §3-4, client-behaviour §2.5), so a
 * reload keeps the user logged in and the server can also read the token from the cookie.
 */
export interface StoredSession {
  token: string;
  id: string;
}

export function readSession(): StoredSession | null {
  const token = getCookie('token');
  if (!token) return null;
  return { token, id: getCookie('id') ?? '' };
}

export function writeSession(session: StoredSession): void {
  setCookie('token', session.token);
  setCookie('id', session.id);
}

export function clearSession(): void {
  removeCookie('token');
  removeCookie('id');
}

/** The bearer token for API calls: read fresh each time so a logout in another tab takes effect. */
export function currentToken(): string | null {
  return getCookie('token');
}

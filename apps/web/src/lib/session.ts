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

type Listener<T> = (value: T) => void;
const tokenListeners = new Set<Listener<string>>();
const endedListeners = new Set<Listener<string>>();
let endMessage = '';

/**
 * The server renewed the session (issue 11: a fresh token in the `x-bathylog-token` header): the
 * new token replaces the stored one silently, and listeners (auth state, websocket) follow.
 */
export function replaceToken(token: string): void {
  const session = readSession();
  if (!session || session.token === token) return;
  writeSession({ ...session, token });
  for (const listener of tokenListeners) listener(token);
}

export function onTokenReplaced(listener: Listener<string>): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

/** The server ended the session (expired or revoked): the message is shown on the login screen. */
export function reportSessionEnded(message: string): void {
  endMessage = message;
  for (const listener of endedListeners) listener(message);
}

export function onSessionEnded(listener: Listener<string>): () => void {
  endedListeners.add(listener);
  return () => endedListeners.delete(listener);
}

/** The reason the last session ended, once (the login screen shows it). */
export function takeSessionEndMessage(): string {
  const message = endMessage;
  endMessage = '';
  return message;
}

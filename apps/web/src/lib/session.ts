import { getCookie, removeCookie } from './cookies';

/**
 * The session (docs/security.md, "Browser session"): the server keeps its token in an HttpOnly
 * cookie that page script cannot read, and sets the readable `id` cookie beside it; a stored
 * session is one with an `id` cookie. Requests go with the cookie (same origin); the token is
 * never kept here, except in the case below.
 */
export interface StoredSession {
  id: string;
  /** Only where the browser refused the server's cookies (see `adoptSession`). */
  token?: string;
}

/**
 * Where the browser refuses the server's cookies (an embedding frame of another site over plain
 * http, whose cookies a browser drops), the session lasts for the page's lifetime in memory and
 * calls carry its token as a Bearer header.
 */
let memory: StoredSession | null = null;

export function readSession(): StoredSession | null {
  const id = getCookie('id');
  if (id) return { id };
  return memory;
}

/** After a login: the cookies the server set with its answer, or the token in memory without them. */
export function adoptSession(login: { token: string; id: string }): StoredSession {
  if (getCookie('id') === login.id) {
    memory = null;
    return { id: login.id };
  }
  memory = { id: login.id, token: login.token };
  return memory;
}

/** Forgets the session here; the server clears its HttpOnly cookie (POST auth/logout). */
export function clearSession(): void {
  memory = null;
  removeCookie('id');
}

/** The bearer token for API calls: only for a session kept in memory; cookie sessions send none. */
export function currentToken(): string | null {
  return getCookie('id') ? null : (memory?.token ?? null);
}

/** For the websocket: null without a session, '' when the session cookie authenticates it. */
export function helloToken(): string | null {
  if (!readSession()) return null;
  return currentToken() ?? '';
}

/** Identifies a session in the client's caches: the user and the how-many-th login of this page. */
export function sessionKeyOf(session: StoredSession, login = 0): string {
  return `${session.id}:${login}`;
}

type Listener<T> = (value: T) => void;
const endedListeners = new Set<Listener<string>>();
let endMessage = '';

/**
 * The server renewed a session kept in memory (a fresh token in the `x-bathylog-token` header; a
 * cookie session is renewed in its cookie).
 */
export function replaceToken(token: string): void {
  if (memory && !getCookie('id')) memory = { ...memory, token };
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

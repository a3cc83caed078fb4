import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/**
 * The browser session lives in two cookies the server sets itself (docs/security.md, "Browser
 * session"): `token`, the session JWT, HttpOnly so that no page script can read it, and `id`, the
 * user's id, readable, so the client knows a session exists without seeing its token. Both last
 * as long as the browser session; the JWT inside expires on its own.
 */
export const sessionCookie = 'token';
export const sessionIdCookie = 'id';

type CookieConfig = Pick<Config, 'publicUrl' | 'sessions'>;

function overTls(request: FastifyRequest, config: CookieConfig): boolean {
  return request.protocol === 'https' || (config.publicUrl?.startsWith('https:') ?? false);
}

/**
 * Lax keeps the cookie off requests started by other sites. Over TLS, a server configured to be
 * embedded by other sites (the login-with-token frame) uses None, the only way a browser sends the
 * cookie inside a frame of another site; the origin check on writes stands in for Lax there.
 */
function attributes(request: FastifyRequest, config: CookieConfig): string {
  const tls = overTls(request, config);
  const sameSite = tls && config.sessions.embedded ? 'None' : 'Lax';
  return `Path=/; SameSite=${sameSite}${tls ? '; Secure' : ''}`;
}

function addCookies(reply: FastifyReply, cookies: string[]): void {
  const present = reply.getHeader('set-cookie');
  const before = present === undefined ? [] : Array.isArray(present) ? present : [String(present)];
  reply.header('set-cookie', [...before, ...cookies]);
}

/** Stores a new session in the browser (login, login-with-token). */
export function setSessionCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  config: CookieConfig,
  session: { token: string; id: string },
): void {
  const attrs = attributes(request, config);
  addCookies(reply, [
    `${sessionCookie}=${encodeURIComponent(session.token)}; ${attrs}; HttpOnly`,
    `${sessionIdCookie}=${encodeURIComponent(session.id)}; ${attrs}`,
  ]);
}

/** Replaces the session token of a browser whose session was renewed; the id stays. */
export function renewSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: CookieConfig,
  token: string,
): void {
  addCookies(reply, [`${sessionCookie}=${encodeURIComponent(token)}; ${attributes(request, config)}; HttpOnly`]);
}

/** Ends the browser session (log out). */
export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply, config: CookieConfig): void {
  const attrs = `${attributes(request, config)}; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  addCookies(reply, [`${sessionCookie}=; ${attrs}; HttpOnly`, `${sessionIdCookie}=; ${attrs}`]);
}

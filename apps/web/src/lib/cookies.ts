/** Minimal cookie helpers for the readable cookies (the session marker `id`, category); the session token is HttpOnly. */

export interface CookieOptions {
  path?: string;
  /** Seconds; omitted = a session cookie, gone when the browser closes. */
  maxAge?: number;
}

export function getCookie(name: string): string | null {
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) {
      try {
        return decodeURIComponent(item.slice(prefix.length));
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function setCookie(name: string, value: string, opts: CookieOptions = {}): void {
  const parts = [`${encodeURIComponent(name)}=${encodeURIComponent(value)}`, `path=${opts.path ?? '/'}`];
  if (opts.maxAge !== undefined) parts.push(`max-age=${opts.maxAge}`);
  // Over TLS: Secure, and SameSite=None so the client also works inside an embedding frame of
  // another site; plain http keeps Lax (Sealog's client meant to but never did; docs/screens.md#session).
  if (window.location.protocol === 'https:') parts.push('SameSite=None', 'Secure');
  else parts.push('SameSite=Lax');
  document.cookie = parts.join('; ');
}

export function removeCookie(name: string, opts: CookieOptions = {}): void {
  document.cookie = `${encodeURIComponent(name)}=; path=${opts.path ?? '/'}; max-age=0; SameSite=Lax`;
}

/**
 * Where reset links point, so a caller cannot have a victim's reset token mailed inside a link to
 * another site. With BATHYLOG_PUBLIC_URL set, always at this server's own client. Without it, the
 * resetURL the client sent (Sealog's behaviour) only when it lies on the server's own origin (as
 * the request addressed it) or on a configured client origin (BATHYLOG_ALLOWED_ORIGINS); any other
 * resetURL is replaced by the server's own client, without an error, so the answer stays the same
 * whoever the address belongs to. With neither a public URL nor a resetURL (or no request to take
 * an origin from: the command line), null (no link).
 */
export function resetLinkBase(
  config: { publicUrl: string | null; allowedOrigins: readonly string[] },
  resetURL: string | undefined,
  ownOrigin: string | null,
): string | null {
  if (config.publicUrl) return `${config.publicUrl.replace(/\/+$/, '')}/resetPassword/`;
  if (resetURL === undefined) return null;
  let origin: string | null = null;
  try {
    const url = new URL(resetURL);
    if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
  } catch {
    // Not a URL: the server's own client instead.
  }
  if (origin !== null && (origin === ownOrigin || config.allowedOrigins.includes(origin))) return resetURL;
  return ownOrigin === null ? null : `${ownOrigin}/resetPassword/`;
}

/** The origin a request addressed: its scheme and its Host header (not a forwarded host). */
export function requestOrigin(request: { protocol: string; headers: { host?: string | undefined } }): string {
  const host = request.headers.host ?? 'localhost';
  try {
    return new URL(`${request.protocol}://${host}`).origin;
  } catch {
    return `${request.protocol}://localhost`;
  }
}

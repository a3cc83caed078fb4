/**
 * Where reset and set-password links point, so that nobody can have a victim's reset token mailed
 * inside a link to another site (docs/security.md#password-changes-and-resets). With
 * BATHYLOG_PUBLIC_URL set, always at this server's own client. Without it, the resetURL the client
 * sent (Sealog's behaviour) only when it lies on a configured client origin
 * (BATHYLOG_ALLOWED_ORIGINS). Nothing the request says about itself (its `Host` header) is trusted:
 * anyone can forge it. Otherwise null: the mail carries the path alone (`resetLinkText`), without an
 * error, so the answer stays the same whoever the address belongs to.
 */
export function resetLinkBase(
  config: { publicUrl: string | null; allowedOrigins: readonly string[] },
  resetURL: string | undefined,
): string | null {
  if (config.publicUrl) return `${config.publicUrl.replace(/\/+$/, '')}/resetPassword/`;
  if (resetURL === undefined) return null;
  let origin: string | null = null;
  try {
    const url = new URL(resetURL);
    if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
  } catch {
    // Not a URL: no link.
  }
  return origin !== null && config.allowedOrigins.includes(origin) ? resetURL : null;
}

/**
 * The link a mail shows for a reset token: on the base when there is one, else the path to open
 * on the server the user knows (`/resetPassword/<token>`), which points at no host.
 */
export function resetLinkText(base: string | null, token: string): string {
  return base === null ? `/resetPassword/${token} (open it on your Bathylog server)` : `${base}${token}`;
}

/**
 * Whether a browser page of `origin` is one of the server's own clients: the server's own origin
 * (as the request addressed it, or its public URL) or a configured client origin
 * (BATHYLOG_ALLOWED_ORIGINS). Only such pages may act with the session cookie.
 */
export function isAllowedOrigin(
  origin: string,
  host: string | undefined,
  config: { publicUrl: string | null; allowedOrigins: readonly string[] },
): boolean {
  if (host && (origin === `http://${host}` || origin === `https://${host}`)) return true;
  if (config.publicUrl) {
    try {
      if (new URL(config.publicUrl).origin === origin) return true;
    } catch {
      // An unparsable public URL allows nothing.
    }
  }
  return config.allowedOrigins.includes(origin);
}

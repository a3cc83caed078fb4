/**
 * Where reset links point. With BATHYLOG_PUBLIC_URL set, always at this server's own client, so a
 * caller cannot have a victim's reset token mailed inside a link to another site; without it, the
 * resetURL the client sent (Sealog's behaviour).
 */
export function resetLinkBase(config: { publicUrl: string | null }, resetURL: string | undefined): string | null {
  return config.publicUrl ? `${config.publicUrl.replace(/\/+$/, '')}/resetPassword/` : (resetURL ?? null);
}

/**
 * Query parameters that carry credentials (`?token=` of Sealog scripts and file links, a
 * loginToken, an API key, a password): their values never reach a log line.
 */
const secretParameter = /(token|password|secret|apikey|api_key|^key)$/i;

/** The reset-password screen's path carries the reset token (`/resetPassword/<token>`). */
const resetPath = /(\/resetPassword\/)[^/?#]+/gi;

export const redacted = '[redacted]';

function parameterName(part: string): string {
  const raw = part.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The URL with every credential it carries replaced by `[redacted]`, for logging. */
export function redactUrl(url: string): string {
  const withPath = url.replace(resetPath, `$1${redacted}`);
  const q = withPath.indexOf('?');
  if (q < 0) return withPath;
  const hash = withPath.indexOf('#', q);
  const query = withPath.slice(q + 1, hash < 0 ? undefined : hash);
  const safe = query
    .split('&')
    .map((part) =>
      part.includes('=') && secretParameter.test(parameterName(part)) ? `${part.split('=', 1)[0]}=${redacted}` : part,
    )
    .join('&');
  return withPath.slice(0, q + 1) + safe + (hash < 0 ? '' : withPath.slice(hash));
}

/**
 * Fastify's request serializer with the URL redacted (the default one logs `req.url` as sent);
 * the same fields otherwise.
 */
export function requestLogValue(request: {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number | undefined } | null;
}) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: typeof request.headers['accept-version'] === 'string' ? request.headers['accept-version'] : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

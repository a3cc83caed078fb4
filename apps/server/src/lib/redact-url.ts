/**
 * Query parameters that carry credentials (`?token=` of Sealog scripts and file links, a
 * loginToken, an API key, a password): their values never reach a log line.
 */
const secretParameter = /(token|password|secret|apikey|api_key|^key)$/i;

/** The reset-password screen's path carries the reset token (`/resetPassword/<token>`). */
const resetPath = /(\/resetPassword\/)[^/?#]+/gi;

/**
 * Values that are credentials whatever they are called or wherever they sit in the URL: a JWT
 * (session and API tokens: base64url `{"…` header, payload and signature) and a device key
 * (`bk_` + 43 base64url characters, lib/device-key-format.ts).
 */
const secretValues = [/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, /(?<![A-Za-z0-9_-])bk_[A-Za-z0-9_-]{43}/g];

export const redacted = '[redacted]';

/**
 * A URL in which none of the above can occur: no query, nothing shaped like a JWT or device key,
 * no reset path (case-insensitive, so a superset of what they match). Most request URLs, which
 * the access line then logs without running each pattern.
 */
const mayCarrySecret = /[?]|eyJ|bk_|\/resetPassword\//i;

function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * Whether a parameter names a credential: its name, or any part of a bracketed or dotted name
 * (`token[]`, `token[0]`, `auth[token]`, `auth.password`), as parsers of such names read them.
 */
function isSecretParameter(part: string): boolean {
  const name = decoded(part.split('=', 1)[0]!);
  return name.split(/[[\].]/).some((segment) => secretParameter.test(segment));
}

/** The URL with every credential it carries replaced by `[redacted]`, for logging. */
export function redactUrl(url: string): string {
  if (!mayCarrySecret.test(url)) return url;
  const withPath = secretValues
    .reduce((u, shape) => u.replace(shape, redacted), url)
    .replace(resetPath, `$1${redacted}`);
  const q = withPath.indexOf('?');
  if (q < 0) return withPath;
  const hash = withPath.indexOf('#', q);
  const query = withPath.slice(q + 1, hash < 0 ? undefined : hash);
  const safe = query
    .split('&')
    .map((part) => (part.includes('=') && isSecretParameter(part) ? `${part.split('=', 1)[0]}=${redacted}` : part))
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

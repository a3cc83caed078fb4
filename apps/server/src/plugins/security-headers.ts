import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/**
 * Defence-in-depth headers (docs/security.md, "Web client"): every answer says `nosniff` and a
 * referrer policy; every HTML page (the client's shell at / and at each client route, the API
 * documentation) and script gets a Content-Security-Policy, so a script that got into a page some
 * other way still cannot run: scripts only from the server itself (plus the hashes of the shell's
 * own inline script), no inline event handlers, no plugins, and framing only by the server and the
 * configured embedding origins.
 */

/** Where the API documentation (Swagger UI) lives; it gets a policy of its own. */
export const documentationPrefix = '/sealog-server/documentation';

/** A CSP source expression we are willing to put in the header: no spaces, quotes, `;` or `,`. */
const safeSource = /^(?:[a-z][a-z0-9+.-]*:\/\/)?[A-Za-z0-9.\-*[\]:_]+$/i;

/**
 * The CSP source for a configured URL (a tile template such as `https://{s}.tile.example.org/{z}/…`,
 * a WMS endpoint, an overlay list): its scheme and host, a `{…}` placeholder in the host becoming a
 * `*.` wildcard. Null for URLs on the server itself (covered by 'self') and for ones that cannot
 * be expressed.
 */
export function sourceOfUrl(url: string): string | null {
  const text = url.trim();
  const m = /^(?:([a-z][a-z0-9+.-]*):)?\/\/([^/?#]+)/i.exec(text);
  if (!m) return null;
  const scheme = m[1] ? `${m[1].toLowerCase()}://` : '';
  let host = m[2]!.replace(/^[^@]*@/, '').replace(/\{[^}]*\}/g, '*');
  if (host.includes('*')) {
    const labels = host.split('.');
    let last = -1;
    labels.forEach((label, i) => {
      if (label.includes('*')) last = i;
    });
    const rest = labels.slice(last + 1);
    if (rest.length < 2) return null;
    host = `*.${rest.join('.')}`;
  }
  const source = scheme + host;
  return safeSource.test(source) ? source : null;
}

/** The sha256 sources of the inline scripts of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(m[1]!)) continue;
    const body = m[2]!;
    if (body.trim() === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

function unique(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

function policy(directives: Record<string, readonly string[]>): string {
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** Origins that may frame the client: the configured embedders and the login-with-token origins. */
export function frameAncestorsOf(config: Config, log?: FastifyBaseLogger): string[] {
  const out: string[] = [];
  for (const origin of [...config.contentSecurityPolicy.frameAncestors, ...config.client.loginWithTokenOrigins]) {
    const source = sourceOfUrl(origin);
    if (source) out.push(source);
    else log?.warn({ origin }, 'frame-ancestors: not an origin, left out of the Content-Security-Policy');
  }
  return unique(out);
}

/**
 * The client's policy. `inlineHashes`: the shell's inline scripts. Tile servers of the map layers
 * (and the server of an overlay list given as a URL) are allowed for images and fetches, with any
 * configured extra origins; reCAPTCHA's script and frame only when a site key is set.
 */
export function clientPolicy(config: Config, inlineHashes: readonly string[], log?: FastifyBaseLogger): string {
  const client = config.client;
  const tileUrls = [...client.tileLayers, ...(Array.isArray(client.overlayLayers) ? client.overlayLayers : [])].map(
    (l) => l.url,
  );
  const mapSources = [...tileUrls, typeof client.overlayLayers === 'string' ? client.overlayLayers : '']
    .map(sourceOfUrl)
    .filter((s): s is string => s !== null);
  const extra = config.contentSecurityPolicy.extraOrigins.filter((s) => {
    if (safeSource.test(s)) return true;
    log?.warn({ source: s }, 'contentSecurityPolicy.extraOrigins: not a source, left out');
    return false;
  });
  const imageServer = sourceOfUrl(client.imagePath);
  const captcha = client.recaptchaSiteKey
    ? {
        script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
        frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
      }
    : { script: [], frame: [] };
  return policy({
    'default-src': ["'self'"],
    'script-src': unique(["'self'", ...inlineHashes, ...captcha.script]),
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'img-src': unique(["'self'", 'data:', 'blob:', ...mapSources, ...(imageServer ? [imageServer] : []), ...extra]),
    'connect-src': unique(["'self'", ...mapSources, ...extra]),
    'font-src': ["'self'", 'data:'],
    'worker-src': ["'self'"],
    'frame-src': unique(["'self'", ...captcha.frame]),
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': unique(["'self'", ...frameAncestorsOf(config, log)]),
  });
}

/** Swagger UI's policy: its own scripts and style sheets; it writes inline styles. */
export const documentationPolicy = policy({
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
});

/** Content types whose answers get a policy: pages, and scripts (a worker's policy is its script's). */
const policed = /^(text\/html|application\/javascript|text\/javascript|application\/xhtml\+xml|image\/svg\+xml)\b/i;

/**
 * Adds the headers to every answer, with `cache-control: no-cache` where a route set none. `webDir`: the built client, whose index.html is read once here
 * for the hashes of its inline scripts (whatever they say).
 */
export function registerSecurityHeaders(app: FastifyInstance, opts: { config: Config; webDir: string | null }): void {
  const indexFile = opts.webDir ? path.join(opts.webDir, 'index.html') : null;
  const hashes = indexFile && existsSync(indexFile) ? inlineScriptHashes(readFileSync(indexFile, 'utf8')) : [];
  const appPolicy = clientPolicy(opts.config, hashes, app.log);

  // One hook for the headers every answer gets (docs/performance.md#per-request): answers are
  // revalidated unless a route says otherwise (the wire convention of plugins/http.ts), then the
  // defence-in-depth headers.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && policed.test(type) && !reply.hasHeader('content-security-policy')) {
      const docs = request.url === documentationPrefix || request.url.startsWith(`${documentationPrefix}/`);
      reply.header('content-security-policy', docs ? documentationPolicy : appPolicy);
    }
    done(null, payload);
  });
}

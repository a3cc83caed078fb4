import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError } from '../lib/app-error.js';
import { isAllowedOrigin } from '../lib/origins.js';
import { authenticatedByCookie, writeMethods } from './auth.js';

/**
 * The one kind of GET that acts (Sealog's wire has it so): starting an external export command.
 * It gets the same origin check as writes.
 */
const actingReads = '/sealog-server/api/v1/external_calls/';

/**
 * Body types an HTML form or a "simple" cross-site fetch can POST without asking first (other
 * methods always ask first). Multipart stays: the own pages upload files with it.
 */
const simpleBodyTypes = ['application/x-www-form-urlencoded', 'text/plain'];

export const crossSiteMessages = {
  origin: 'Cross-site request refused: the session cookie is only accepted from the Bathylog client',
  contentType:
    'Cross-site request refused: send JSON (Content-Type: application/json) with the session cookie, or authenticate with an Authorization header',
} as const;

/**
 * Why a write carrying the session cookie is refused, or null when it may go on. A browser sends
 * the cookie with any request to this server, also one started by a page of another site (on
 * another port of the same host the Lax cookie goes along too). So such a write must come from
 * the server's own origin or a configured client origin (Origin; without one, Sec-Fetch-Site
 * must say same-origin when the browser sends it), and must not have a body type that a plain
 * HTML form can post. Callers with an Authorization header (scripts, Sealog clients) or a
 * device key are not affected: a page of another site cannot make the browser add those.
 */
export function crossSiteRefusal(
  request: Pick<FastifyRequest, 'method' | 'url' | 'query' | 'headers'>,
  ctx: Pick<AppContext, 'config'>,
): string | null {
  const isWrite = writeMethods.has(request.method);
  if (isWrite ? !request.url.startsWith('/sealog-server/') : !request.url.startsWith(actingReads)) return null;
  if (!authenticatedByCookie(request)) return null;
  const { origin, host } = request.headers;
  const fetchSite = request.headers['sec-fetch-site'];
  if (origin !== undefined) {
    if (!isAllowedOrigin(origin, host, ctx.config)) return crossSiteMessages.origin;
  } else if (fetchSite !== undefined && fetchSite !== 'same-origin') {
    return crossSiteMessages.origin;
  }
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (request.method === 'POST' && simpleBodyTypes.includes(type)) return crossSiteMessages.contentType;
  return null;
}

/**
 * Refuses cookie-authenticated writes from other sites (403) before the route's other hooks
 * (authentication first of all) run. The check is attached only to the routes it can refuse:
 * writes under `/sealog-server/` and the acting reads (docs/performance.md#per-request). A URL that
 * matches no route does nothing and is answered 404. Register before the routes and before
 * `registerAuth`.
 */
export function registerCrossSiteGuard(app: FastifyInstance, ctx: AppContext): void {
  const guard: onRequestHookHandler = (request, _reply, done) => {
    const refusal = crossSiteRefusal(request, ctx);
    if (!refusal) return done();
    // Worth a line: a page of another site tried to act with a user's session.
    request.log.warn(
      { origin: request.headers.origin, fetchSite: request.headers['sec-fetch-site'], url: request.url },
      'cross-site write with the session cookie refused',
    );
    done(new AppError('FORBIDDEN', refusal));
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const writes = route.url.startsWith('/sealog-server/') && methods.some((m) => writeMethods.has(m));
    if (!writes && !route.url.startsWith(actingReads)) return;
    if (Array.isArray(route.onRequest)) route.onRequest = [...route.onRequest, guard];
    else route.onRequest = route.onRequest ? [route.onRequest, guard] : [guard];
  });
}

import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { emptyListHeader, sessionEndHeader } from '@bathylog/shared';
import { renewedTokenHeader } from './auth.js';

/** Headers a page on another origin may read from our answers. */
const exposedHeaders = ['WWW-Authenticate', 'Server-Authorization', renewedTokenHeader, sessionEndHeader];

/**
 * Cross-origin requests: any origin may call the API (a stock Sealog client served beside the
 * server, scripts), as in Sealog. Cookie-authenticated writes are refused from foreign origins
 * elsewhere (plugins/cross-site.ts); Bearer callers may write from anywhere.
 *
 * Preflights (OPTIONS) are answered by @fastify/cors, registered in a context of its own that
 * holds only its OPTIONS route. Every other answer gets the headers it would add, from one hook
 * that reads no route options and copies no option object (docs/performance.md#per-request):
 * `Vary: Origin` always (the answer depends on the origin), and for a request that names an
 * origin, that origin as the allowed one and the headers a page may read. A request without an
 * `Origin` header is no cross-origin request, so it is not told which headers a page may read.
 */
export async function registerCors(app: FastifyInstance): Promise<void> {
  const exposed = exposedHeaders.join(', ');
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS') {
      const vary = reply.getHeader('vary');
      if (!vary) reply.header('vary', 'Origin');
      else if (vary !== '*' && !/(?:^|,)\s*origin\s*(?:,|$)/i.test(String(vary)))
        reply.header('vary', `${vary}, Origin`);
      const origin = request.headers.origin;
      if (origin) {
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-expose-headers', exposed);
      }
    }
    done();
  });
  await app.register(async (preflights) => {
    await preflights.register(cors, {
      origin: true,
      // An OPTIONS request that is not a preflight is answered like one (204), not with cors's text 400.
      strictPreflight: false,
      // Every method a route answers: a client on another origin edits with PATCH and DELETE.
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      exposedHeaders,
      allowedHeaders: ['Accept', 'Authorization', 'Content-Type', 'If-None-Match', emptyListHeader],
      maxAge: 86400,
    });
  });
}

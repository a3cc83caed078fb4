import type { FastifyContextConfig, FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { AppContext } from '../context.js';
import { videoLinks, type VideoLinks } from './video-index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's answers carry each event's recording and offset per camera (docs/video.md#exports):
     * the request gets `videoLinks`.
     */
    video?: true;
  }
  interface FastifyRequest {
    videoLinks: VideoLinks | null;
  }
}

/**
 * Gives every route that declares `config.video` the resolver of recordings by time, the way
 * `config.access` gives the caller's event access: export and event modules read
 * `request.videoLinks` and never import the recordings module. Call before routes are registered.
 */
export function registerVideoLinks(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('videoLinks', null);
  const links = videoLinks(ctx.database.db, ctx.config.publicUrl ?? '');
  app.addHook('onRoute', (route) => {
    if ((route.config as FastifyContextConfig | undefined)?.video !== true) return;
    const hook: preHandlerHookHandler = (request, _reply, done) => {
      request.videoLinks = links;
      done();
    };
    if (Array.isArray(route.preHandler)) route.preHandler = [...route.preHandler, hook];
    else route.preHandler = route.preHandler ? [route.preHandler, hook] : [hook];
  });
}

/** The resolver on a route that declares `config.video`; one that does not is a server bug. */
export function requestVideoLinks(request: FastifyRequest): VideoLinks {
  if (!request.videoLinks) throw new Error(`${request.method} ${request.url}: route declares no video links`);
  return request.videoLinks;
}

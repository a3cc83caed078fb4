import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';

/** One route as the server registered it (the fuzz suite and the role matrix are generated from these). */
export interface RouteEntry {
  method: string;
  /** The full pattern, e.g. `/sealog-server/api/v1/events/:id` or `/sealog-server/files/cruises/*`. */
  url: string;
  /**
   * The route's `config` (`auth`, `scopes`, `access`: how it stands to event data,
   * modules/access/event-access.ts; `archive`: it admits the anonymous archive visitor; `origin`:
   * how a write route stands to records copied from a ship, origins/origin-guard.ts).
   */
  config: {
    auth?: boolean | 'optional';
    scopes?: readonly string[];
    access?: string;
    archive?: true;
    origin?: unknown;
  };
  schema: FastifySchema | undefined;
}

/**
 * Records every route the server registers, in order, through Fastify's onRoute hook. Call it on
 * the root instance before any route or plugin is registered: encapsulated plugins inherit it.
 */
export function collectRoutes(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      routes.push({
        method,
        url: route.url,
        config: (route.config ?? {}) as RouteEntry['config'],
        schema: route.schema,
      });
    }
  });
  return routes;
}

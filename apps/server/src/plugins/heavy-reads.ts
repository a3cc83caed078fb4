import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../context.js';
import { FairQueue } from '../lib/fair-queue.js';

/**
 * Exports, CSV and full lists stream a whole cruise or lowering: many at once would keep the
 * event loop and the disk busy and the console's light requests would wait behind them. They run
 * a few at a time through one fair queue per server (its limits: config `heavyReads`); everything
 * else never waits for it.
 */
const queues = new WeakMap<AppContext, FairQueue>();

export function heavyReadQueue(ctx: AppContext): FairQueue {
  let queue = queues.get(ctx);
  if (!queue) {
    queue = new FairQueue(ctx.config.heavyReads);
    queues.set(ctx, queue);
  }
  return queue;
}

/** A list read of everything that matches (no limit, or a large one), or as CSV. */
export function isFullList(query: { limit?: number | undefined; format?: string | undefined }): boolean {
  return query.format === 'csv' || query.limit === undefined || query.limit > 1000;
}

class ClientGone extends Error {}

/**
 * Waits for the request's turn among the heavy reads and holds it until the answer has been sent
 * (or the client went away). Callers are told apart by device key, user, or address without a
 * token. Throws the 503 of a full queue.
 */
export function waitForHeavyRead(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const auth = request.auth;
  const caller = auth ? (auth.key ? `key:${auth.key.id}` : `user:${auth.user.id}`) : `address:${request.ip}`;
  const { granted, cancel } = heavyReadQueue(ctx).acquire(caller);
  const res = reply.raw;
  return new Promise<void>((resolve, reject) => {
    let release: (() => void) | undefined;
    let closed = false;
    res.once('close', () => {
      closed = true;
      if (release) release();
      else if (cancel()) reject(new ClientGone('The client closed the connection while waiting'));
    });
    void granted.then((r) => {
      release = r;
      if (!closed) return resolve();
      r();
      reject(new ClientGone('The client closed the connection while waiting'));
    });
  });
}

type Query = { limit?: number; format?: string; eventID?: string; events?: boolean };

/**
 * The heavy reads (paths under the API prefix) and which of their requests are heavy: every read
 * whose work grows with a whole cruise, dive or table. `apps/server/test/heavy-reads.test.ts` is
 * generated from the route table: a GET route reading event data that is neither here nor listed
 * there as light fails it, and so does a heavy route here that does not wait in the queue.
 */
export const heavyRoutes: Readonly<Record<string, (query: Query) => boolean>> = {
  '/events': isFullList,
  '/events/bycruise/:id': isFullList,
  '/events/bylowering/:id': isFullList,
  '/event_exports': isFullList,
  '/event_exports/bycruise/:id': isFullList,
  '/event_exports/bylowering/:id': isFullList,
  // One event's aux data is light; the whole list is not.
  '/event_aux_data': (query) => query.eventID === undefined && isFullList(query),
  '/event_aux_data/bycruise/:id': isFullList,
  '/event_aux_data/bylowering/:id': isFullList,
  // A cruise's or lowering's logged taxa checked against the taxonomy: every event of it.
  '/taxa/synonyms': () => true,
  '/gis_exports/bycruise/:id': () => true,
  '/gis_exports/bylowering/:id': () => true,
  '/tracks/bylowering/:id': () => true,
  '/lowerings/:id/metrics': () => true,
  '/cruises/:id/metrics': () => true,
  // The summary is counted in SQL; with `events=true` it lists every event of the dive.
  '/lowerings/:id/completeness': (query) => query.events === true,
  '/audit': (query) => query.format === 'csv',
  '/publication/dwca/bycruise/:id': () => true,
  '/publication/dwca/bylowering/:id': () => true,
  '/publication/dwca_report/bycruise/:id': () => true,
  '/publication/dwca_report/bylowering/:id': () => true,
  '/publication/event_list/bycruise/:id': () => true,
};

/**
 * Puts the heavy reads through the queue: a pre-handler (after authentication and validation) on
 * each of their GET routes. Call before the routes are registered.
 */
export function registerHeavyReads(app: FastifyInstance, ctx: AppContext, apiPrefix: string): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET') || !route.url.startsWith(apiPrefix)) return;
    const heavy = heavyRoutes[route.url.slice(apiPrefix.length)];
    if (!heavy) return;
    const hook: preHandlerAsyncHookHandler = async (request, reply) => {
      if (heavy(request.query as Query)) await waitForHeavyRead(ctx, request, reply);
    };
    if (Array.isArray(route.preHandler)) route.preHandler = [...route.preHandler, hook];
    else route.preHandler = route.preHandler ? [route.preHandler, hook] : [hook];
  });
}

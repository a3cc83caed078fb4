import { shipRecordReadOnlyMessage, type RecordOrigin } from '@bathylog/shared';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError } from '../lib/app-error.js';
import { writeMethods } from '../plugins/auth.js';
import { followsShips, recordOrigins, type OriginRecordType } from './record-origins.js';

/**
 * Where a request names the record it changes:
 * - `params.id`, `body.id`, `body.event_id`: that field (absent: nothing to check);
 * - `path.record`: the first segment of a wildcard file path (`files/cruises/<id>/<name>`);
 * - a function, for a route whose record is found another way (an attachment's event).
 */
export type OriginIdSource =
  | 'params.id'
  | 'body.id'
  | 'body.event_id'
  | 'path.record'
  | ((request: FastifyRequest) => string | undefined | Promise<string | undefined>);

/** One record a route may change: its type, where the request names it, and the one allowed change. */
export interface OriginCheck {
  type: OriginRecordType;
  id: OriginIdSource;
  /**
   * `comment`: a change of a copied event's comment alone is allowed (and travels to the ship:
   * docs/ship-to-shore.md#comments-from-shore); anything else is refused.
   */
  except?: 'comment';
}

/**
 * How a write route (POST, PUT, PATCH, DELETE) stands to records copied from a ship, declared in
 * its `config.origin`; a write route without it is refused when the server starts:
 * - `none`: it changes no copied record (it creates a new one, or changes users, keys, settings);
 * - `bulk`: a bulk change whose service leaves copied records out (copiedIds);
 * - one or more `OriginCheck`s: each record the request names is looked up, and a copied one is
 *   refused with the read-only message naming its ship (403), before the handler runs.
 */
export type RouteOrigin = 'none' | 'bulk' | OriginCheck | readonly OriginCheck[];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How the route stands to records copied from a ship (origins/origin-guard.ts). */
    origin?: RouteOrigin;
  }
}

/** What a module answers for a change the read-only rule allows on a copied record. */
export interface OriginExceptions {
  /**
   * Whether this request changes nothing of the copied event but its comment; the module that
   * owns the comments queue remembers it to send to the ship.
   */
  comment(request: FastifyRequest, origin: RecordOrigin, eventId: string): Promise<boolean>;
  /**
   * Whether the caller may not see this record (an event, or an aux record, outside the caller's
   * event access): it is then left to the handler, which answers as for a missing one, so the
   * read-only answer never tells that a hidden record exists.
   */
  hidden(request: FastifyRequest, type: OriginRecordType, id: string): Promise<boolean>;
}

function field(value: unknown, key: string): string | undefined {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' && v !== '' ? v.toLowerCase() : undefined;
}

async function idOf(request: FastifyRequest, source: OriginIdSource): Promise<string | undefined> {
  if (typeof source === 'function') return (await source(request))?.toLowerCase();
  switch (source) {
    case 'params.id':
      return field(request.params, 'id');
    case 'body.id':
      return field(request.body, 'id');
    case 'body.event_id':
      return field(request.body, 'event_id');
    case 'path.record':
      return field(request.params, '*')
        ?.split('/')
        .find((s) => s !== '');
  }
}

/** The origin of a record, or of the event an aux record belongs to (aux data follows its event). */
async function originOf(ctx: AppContext, type: OriginRecordType, id: string): Promise<RecordOrigin | undefined> {
  const own = (await recordOrigins(ctx, type, [id])).get(id);
  if (own || type !== 'event_aux_data') return own;
  const aux = await ctx.database.db
    .selectFrom('event_aux_data')
    .select('event_id')
    .where('id', '=', id)
    .executeTakeFirst();
  return aux ? (await recordOrigins(ctx, 'event', [aux.event_id])).get(aux.event_id) : undefined;
}

/** The declared checks of a route (none for `none` and `bulk`). */
function checksOf(origin: RouteOrigin): readonly OriginCheck[] {
  if (origin === 'none' || origin === 'bulk') return [];
  return Array.isArray(origin) ? origin : [origin as OriginCheck];
}

/**
 * Records copied from a ship are read-only on the shore (docs/ship-to-shore.md#read-only-on-shore).
 * Every write route under /sealog-server declares `config.origin` (registration throws without it,
 * so a route added later cannot forget); one preHandler per guarded route, after authentication
 * and the body's validation, refuses a change of a copied record. Call before any route is
 * registered: encapsulated plugins inherit it.
 */
export function registerOriginGuard(app: FastifyInstance, ctx: AppContext, exceptions: OriginExceptions): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.startsWith('/sealog-server/') || !methods.some((m) => writeMethods.has(m))) return;
    const origin = (route.config as FastifyContextConfig | undefined)?.origin;
    if (origin === undefined) {
      // A server bug, refused at start: every way of changing a record says how it stands to copies.
      throw new Error(`${methods.join(',')} ${route.url}: a write route declares config.origin`);
    }
    const checks = checksOf(origin);
    if (checks.length === 0) return;
    const hook: preHandlerHookHandler = (request, _reply, done) => {
      void (async () => {
        // A server holding no copies (a ship's own console) looks nothing up.
        if (!(await followsShips(ctx))) return;
        for (const check of checks) {
          const id = await idOf(request, check.id);
          if (!id) continue;
          const found = await originOf(ctx, check.type, id);
          if (!found || (await exceptions.hidden(request, check.type, id))) continue;
          if (check.except === 'comment' && (await exceptions.comment(request, found, id))) continue;
          throw new AppError('FORBIDDEN', shipRecordReadOnlyMessage(found.ship_name));
        }
      })().then(() => done(), done);
    };
    if (Array.isArray(route.preHandler)) route.preHandler = [...route.preHandler, hook];
    else route.preHandler = route.preHandler ? [route.preHandler, hook] : [hook];
  });
}

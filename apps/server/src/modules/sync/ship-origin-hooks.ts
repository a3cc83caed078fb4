import {
  eventCommentOptionName,
  isCommentOnlyChange,
  newObjectId,
  type EventOption,
  type RecordOrigin,
  type UpdateEvent,
} from '@bathylog/shared';
import type { FastifyContextConfig, FastifyRequest, onSendHookHandler, RouteOptions } from 'fastify';
import type { AppContext } from '../../context.js';
import { parseJson } from '../../lib/json.js';
import type { OriginCheck, OriginExceptions, RouteOrigin } from '../../origins/origin-guard.js';
import { recordOrigin, type OriginRecordType } from '../../origins/record-origins.js';
import type { ApiInstance } from '../../plugins/types.js';
import { internalChannels } from '../../realtime/internal-channels.js';

/** The single-record reads that carry `origin`. */
const originRoutes: Array<[string, OriginRecordType]> = [
  ['/cruises/:id', 'cruise'],
  ['/lowerings/:id', 'lowering'],
  ['/events/:id', 'event'],
  ['/event_exports/:id', 'event'],
];

const pendingComment = new WeakMap<FastifyRequest, { shipId: string; eventId: string; text: string; author: string }>();

/**
 * The one change allowed on a copied record (origins/origin-guard.ts refuses the others): an
 * event's comment, stored here and queued to travel to the ship
 * (docs/ship-to-shore.md#comments-from-shore).
 */
export function copiedEventComments(ctx: AppContext): Pick<OriginExceptions, 'comment'> {
  return {
    async comment(req: FastifyRequest, origin: RecordOrigin, eventId: string): Promise<boolean> {
      if (req.method !== 'PATCH' || !req.auth) return false;
      const existing = await ctx.database.db
        .selectFrom('events')
        .selectAll()
        .where('id', '=', eventId)
        .executeTakeFirst();
      const body = req.body as UpdateEvent;
      if (
        !existing ||
        !body ||
        !isCommentOnlyChange({ ...existing, event_options: parseJson<EventOption[]>(existing.event_options, []) }, body)
      )
        return false;
      const commentOf = (options: EventOption[] | undefined) => {
        const value = options?.find((o) => o.event_option_name === eventCommentOptionName)?.event_option_value;
        return typeof value === 'string' && value.trim() !== '' ? value : '';
      };
      const before = commentOf(parseJson<EventOption[]>(existing.event_options, []));
      const text = body.event_options === undefined ? before : commentOf(body.event_options);
      // A new comment travels as its text; a removed one as empty text (the ship removes its comment).
      if (text.trim() !== before.trim()) {
        pendingComment.set(req, { shipId: origin.ship_id, eventId: existing.id, text, author: req.auth.user.username });
      }
      return true;
    },
  };
}

/** Whether a route's `config.origin` allows a copied event's comment to change (and so may queue one). */
function queuesComments(origin: RouteOrigin | undefined): boolean {
  if (origin === undefined || origin === 'none' || origin === 'bulk') return false;
  const checks: readonly OriginCheck[] = Array.isArray(origin) ? origin : [origin as OriginCheck];
  return checks.some((c) => c.except === 'comment');
}

/** Adds a route-level onSend hook to a route being registered. */
function addOnSend(route: RouteOptions, hook: onSendHookHandler): void {
  if (Array.isArray(route.onSend)) route.onSend = [...route.onSend, hook];
  else route.onSend = route.onSend ? [route.onSend, hook] : [hook];
}

/**
 * Single-record reads of a copied record say where it came from, and an allowed comment on a
 * copied event is queued to its ship once stored. Each hook is attached, from the route table, only
 * to the routes it acts on (the single-record reads; the writes whose `config.origin` allows a
 * comment), so no other request runs it. Register before the routes: later modules' routes get it.
 */
export function shipOriginHooks(app: ApiInstance, ctx: AppContext): void {
  // Single-record reads of a ship's cruise, lowering or event say where it came from (the list
  // answers look up theirs per page: record-origins.ts).
  const markOrigin = (type: OriginRecordType): onSendHookHandler =>
    async function markOrigin(req, reply, payload) {
      if (req.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
      const id = (req.params as { id?: unknown } | undefined)?.id;
      if (typeof id !== 'string') return payload;
      const origin = await recordOrigin(ctx, type, id);
      if (!origin) return payload;
      const body = parseJson<unknown>(payload, null);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return payload;
      return JSON.stringify({ ...body, origin });
    };

  // Queued once the comment is stored here, before the answer leaves (an acknowledged comment is
  // never lost); the follower sends it until the ship acknowledges.
  const queueComment: onSendHookHandler = async function queueComment(req, reply, payload) {
    const comment = pendingComment.get(req);
    if (!comment || reply.statusCode >= 300) return payload;
    pendingComment.delete(req);
    await ctx.database.db
      .insertInto('sync_comment_queue')
      .values({
        id: newObjectId(),
        ship_id: comment.shipId,
        event_id: comment.eventId,
        text: comment.text,
        author: comment.author,
        created_at: ctx.now(),
      })
      .execute();
    ctx.bus.publish(internalChannels.shipsChanged, { shipId: comment.shipId });
    return payload;
  };

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const type = originRoutes.find(([p]) => route.url.endsWith(p))?.[1];
    if (type && methods.includes('GET')) addOnSend(route, markOrigin(type));
    if (queuesComments((route.config as FastifyContextConfig | undefined)?.origin)) addOnSend(route, queueComment);
  });
}

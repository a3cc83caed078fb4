import { z } from 'zod/mini';
import {
  createEventTemplateSchema,
  eventTemplateSchema,
  eventTemplateSortValues,
  idParamsSchema,
  insertResultSchema,
  queryBooleanSchema,
  queryIntSchema,
  updateEventTemplateSchema,
} from '@bathylog/shared';
import { noContent } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { EventTemplatesService } from './event-templates.service.js';

const listQuery = z.strictObject({
  system_template: z.optional(queryBooleanSchema),
  admin_only: z.optional(queryBooleanSchema),
  offset: z.optional(queryIntSchema(0)),
  limit: z.optional(queryIntSchema(1)),
  sort: z.optional(z.enum(eventTemplateSortValues)),
});

/**
 * Event templates (docs/wire.md#event-templates), plus the bulk delete of non-system templates the
 * Sealog client calls.
 */
export function eventTemplatesRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new EventTemplatesService(ctx);
  const read = { auth: true, scopes: ['admin', 'read_event_templates'] } as const;
  const write = { auth: true, scopes: ['admin', 'write_event_templates'] } as const;
  /** The template the request names: a copy from a ship is read-only here (origins/origin-guard.ts). */
  const own = { ...write, origin: { type: 'event_template', id: 'params.id' } } as const;
  const admin = { auth: true, scopes: ['admin'] } as const;
  const tags = ['event_templates'];

  app.get(
    '/event_templates',
    { config: read, schema: { querystring: listQuery, tags, response: { 200: z.array(eventTemplateSchema) } } },
    (req) => service.list(caller(req), req.query),
  );

  // Literal segment before the parameter route, as DELETE /cruises/all; admin-only, as every bulk
  // delete (docs/security.md#changing-and-deleting-events).
  app.delete(
    '/event_templates/all',
    { config: { ...admin, origin: 'bulk' }, schema: { tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.removeAllNonSystem(caller(req));
      return reply.code(204).send();
    },
  );

  app.get(
    '/event_templates/:id',
    { config: read, schema: { params: idParamsSchema, tags, response: { 200: eventTemplateSchema } } },
    (req) => service.get(caller(req), req.params.id),
  );

  app.post(
    '/event_templates',
    {
      config: { ...write, origin: 'none' },
      schema: { body: createEventTemplateSchema, tags, response: { 201: insertResultSchema } },
    },
    async (req, reply) => {
      const insertedId = await service.create(caller(req), req.body);
      return reply.code(201).send({ acknowledged: true, insertedId });
    },
  );

  app.patch(
    '/event_templates/:id',
    {
      config: own,
      schema: { params: idParamsSchema, body: updateEventTemplateSchema, tags, response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.update(caller(req), req.params.id, req.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/event_templates/:id',
    { config: own, schema: { params: idParamsSchema, tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.remove(caller(req), req.params.id);
      return reply.code(204).send();
    },
  );
}

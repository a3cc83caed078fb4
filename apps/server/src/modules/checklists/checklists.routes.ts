import { z } from 'zod/mini';
import {
  checklistItemParamsSchema,
  checklistRunSchema,
  checklistRunsQuerySchema,
  checklistSchema,
  createChecklistSchema,
  idParamsSchema,
  startChecklistRunSchema,
  tickChecklistItemSchema,
  updateChecklistSchema,
} from '@bathylog/shared';
import { noContent } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { ChecklistsService } from './checklists.service.js';

/**
 * Checklists (docs/checklists.md#api): admins define them; whoever may read lowerings reads them and
 * a lowering's runs; event loggers and up (device keys with those rights too) start runs and tick items.
 */
export function checklistsRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new ChecklistsService(ctx);
  const read = { auth: true, scopes: ['admin', 'read_lowerings'] } as const;
  // Checklists and their runs are each server's own: they change no record copied from a ship.
  const tick = { auth: true, scopes: ['admin', 'write_events'], origin: 'none' } as const;
  const admin = { auth: true, scopes: ['admin'] } as const;
  const adminWrite = { ...admin, origin: 'none' } as const;
  const tags = ['checklists'];

  app.get('/checklists', { config: read, schema: { tags, response: { 200: z.array(checklistSchema) } } }, () =>
    service.list(),
  );

  app.get(
    '/checklists/:id',
    { config: read, schema: { params: idParamsSchema, tags, response: { 200: checklistSchema } } },
    (req) => service.get(req.params.id),
  );

  app.post(
    '/checklists',
    { config: adminWrite, schema: { body: createChecklistSchema, tags, response: { 201: checklistSchema } } },
    async (req, reply) => reply.code(201).send(await service.create(caller(req), req.body)),
  );

  app.patch(
    '/checklists/:id',
    {
      config: adminWrite,
      schema: { params: idParamsSchema, body: updateChecklistSchema, tags, response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.update(caller(req), req.params.id, req.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/checklists/:id',
    { config: adminWrite, schema: { params: idParamsSchema, tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.remove(caller(req), req.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/lowerings/:id/checklists',
    {
      config: read,
      schema: {
        params: idParamsSchema,
        querystring: checklistRunsQuerySchema,
        tags,
        response: { 200: z.array(checklistRunSchema) },
      },
    },
    (req) => service.runsOf(caller(req), req.params.id, { start: req.query.start !== 'false' }),
  );

  app.post(
    '/lowerings/:id/checklists',
    {
      config: tick,
      schema: {
        params: idParamsSchema,
        body: startChecklistRunSchema,
        tags,
        response: { 200: checklistRunSchema, 201: checklistRunSchema },
      },
    },
    async (req, reply) => {
      const { run, created } = await service.start(caller(req), req.params.id, req.body.checklist_id);
      return reply.code(created ? 201 : 200).send(run);
    },
  );

  app.patch(
    '/lowerings/:id/checklists/:run_id/items/:item_id',
    {
      config: tick,
      schema: {
        params: checklistItemParamsSchema,
        body: tickChecklistItemSchema,
        tags,
        response: { 200: checklistRunSchema },
      },
    },
    (req) => service.tick(caller(req), req.params.id, req.params.run_id, req.params.item_id, req.body),
  );
}

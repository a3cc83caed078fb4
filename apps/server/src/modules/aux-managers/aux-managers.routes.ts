import { z } from 'zod/mini';
import {
  auxBackfillRequestSchema,
  auxBackfillResultSchema,
  auxManagerSchema,
  auxManagerStatusSchema,
  auxProvenanceSchema,
  createAuxManagerSchema,
  idParamsSchema,
  objectIdSchema,
  updateAuxManagerSchema,
} from '@bathylog/shared';
import { noContent } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { eventAccess } from '../access/event-access.js';
import { AuxManagersService } from './aux-managers.service.js';

/** Built-in aux-data managers (docs/aux-managers.md#rest), admins only but for the footer's status and provenance. */
export function auxManagersRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new AuxManagersService(ctx);
  const admin = { auth: true, scopes: ['admin'], access: 'admin' } as const;
  // The footer's warning and an event's provenance: whoever reads events.
  const read = { auth: true, scopes: ['admin', 'read_events'], access: 'events' } as const;
  const tags = ['aux_managers'];

  app.get('/aux_managers', { config: admin, schema: { tags, response: { 200: z.array(auxManagerSchema) } } }, () =>
    service.list(),
  );

  app.get(
    '/aux_managers/status',
    {
      config: read,
      schema: {
        tags,
        summary: 'Required aux-data managers that are not ok',
        response: { 200: auxManagerStatusSchema },
      },
    },
    () => service.status(),
  );

  app.get(
    '/aux_managers/provenance',
    {
      config: read,
      schema: {
        tags,
        summary: "Which manager wrote an event's aux records, and how",
        querystring: z.strictObject({ event_id: objectIdSchema }),
        response: { 200: z.array(auxProvenanceSchema) },
      },
    },
    (req) => service.provenance(req.query.event_id, eventAccess(req)),
  );

  app.get(
    '/aux_managers/:id',
    { config: admin, schema: { params: idParamsSchema, tags, response: { 200: auxManagerSchema } } },
    (req) => service.get(req.params.id),
  );

  app.post(
    '/aux_managers',
    {
      config: { ...admin, origin: 'none' },
      schema: { body: createAuxManagerSchema, tags, response: { 201: auxManagerSchema } },
    },
    async (req, reply) => reply.code(201).send(await service.create(caller(req), req.body)),
  );

  app.patch(
    '/aux_managers/:id',
    {
      config: { ...admin, origin: 'none' },
      schema: { params: idParamsSchema, body: updateAuxManagerSchema, tags, response: { 200: auxManagerSchema } },
    },
    (req) => service.update(caller(req), req.params.id, req.body),
  );

  app.delete(
    '/aux_managers/:id',
    { config: { ...admin, origin: 'none' }, schema: { params: idParamsSchema, tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.remove(caller(req), req.params.id);
      return reply.code(204).send();
    },
  );

  // Writes aux data of many events; records copied from a ship are left out by the service ('bulk').
  app.post(
    '/aux_managers/backfill',
    {
      config: { ...admin, origin: 'bulk' },
      schema: {
        tags,
        summary: 'Dry run (default) or run a backfill of events by id, a lowering or a cruise',
        body: auxBackfillRequestSchema,
        response: { 200: auxBackfillResultSchema },
      },
    },
    (req) => service.backfill(req.body),
  );
}

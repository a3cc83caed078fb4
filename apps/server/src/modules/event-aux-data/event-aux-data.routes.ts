import { z } from 'zod/mini';
import {
  auxDataByRecordQuerySchema,
  auxDataListQuerySchema,
  createEventAuxDataSchema,
  eventAuxDataSchema,
  idParamsSchema,
  insertResultSchema,
  loweringRefParamsSchema,
  updateEventAuxDataSchema,
} from '@bathylog/shared';
import { noContent } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import { eventAccess } from '../access/event-access.js';
import type { ApiInstance } from '../../plugins/types.js';
import { sendOutput } from '../events/event-output.js';
import { EventAuxDataService } from './event-aux-data.service.js';

/** Event aux-data routes (docs/wire.md#event-aux-data). */
export function eventAuxDataRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new EventAuxDataService(ctx);
  // Reads admit the anonymous archive visitor while the public archive is on (docs/public-archive.md).
  const read = { auth: true, scopes: ['admin', 'read_events'], access: 'events', archive: true } as const;
  const write = { auth: true, scopes: ['admin', 'write_events'], access: 'events' } as const;
  const tags = ['event_aux_data'];

  app.get(
    '/event_aux_data',
    {
      config: read,
      schema: { querystring: auxDataListQuerySchema, tags, response: { 200: z.array(eventAuxDataSchema) } },
    },
    async (req, reply) => sendOutput(reply, await service.list(req.query, eventAccess(req))),
  );

  for (const kind of ['cruise', 'lowering'] as const) {
    app.get(
      `/event_aux_data/by${kind}/:id`,
      {
        config: read,
        schema: {
          // The WHOI map names the lowering by its human id (docs/sealog-clients.md#whoi-client-routes).
          params: kind === 'lowering' ? loweringRefParamsSchema : idParamsSchema,
          querystring: auxDataByRecordQuerySchema,
          tags,
          response: { 200: z.array(eventAuxDataSchema) },
        },
      },
      async (req, reply) =>
        sendOutput(reply, await service.byRecord(caller(req), kind, req.params.id, req.query, eventAccess(req))),
    );
  }

  app.get(
    '/event_aux_data/:id',
    { config: read, schema: { params: idParamsSchema, tags, response: { 200: eventAuxDataSchema } } },
    (req) => service.get(req.params.id, eventAccess(req)),
  );

  app.post(
    '/event_aux_data',
    {
      // The event it is for, and the record a client id names (which the upsert would replace).
      config: {
        ...write,
        origin: [
          { type: 'event', id: 'body.event_id' },
          { type: 'event_aux_data', id: 'body.id' },
        ],
      },
      schema: { body: createEventAuxDataSchema, tags, response: { 201: insertResultSchema, 204: noContent } },
    },
    async (req, reply) => {
      const created = await service.create(caller(req), req.body, eventAccess(req));
      if (created === null) return reply.code(204).send();
      return reply.code(201).send({ acknowledged: true, insertedId: created.insertedId });
    },
  );

  app.patch(
    '/event_aux_data/:id',
    {
      // The record, and the event it would move to.
      config: {
        ...write,
        origin: [
          { type: 'event_aux_data', id: 'params.id' },
          { type: 'event', id: 'body.event_id' },
        ],
      },
      schema: { params: idParamsSchema, body: updateEventAuxDataSchema, tags, response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.update(caller(req), req.params.id, req.body, eventAccess(req));
      return reply.code(204).send();
    },
  );

  app.delete(
    '/event_aux_data/:id',
    {
      config: { ...write, origin: { type: 'event_aux_data', id: 'params.id' } },
      schema: { params: idParamsSchema, tags, response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.remove(caller(req), req.params.id, eventAccess(req));
      return reply.code(204).send();
    },
  );
}

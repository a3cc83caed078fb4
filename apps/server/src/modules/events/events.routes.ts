import { z } from 'zod/mini';
import {
  eventWithAuxDataSchema,
  bulkDeleteEventsResponseSchema,
  createEventResponseSchema,
  createEventSchema,
  eventCountSchema,
  eventGetQuerySchema,
  eventListQuerySchema,
  eventSchema,
  idParamsSchema,
  updateEventSchema,
} from '@bathylog/shared';
import { jsonOrCsv, noContent } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import { eventAccess } from '../access/event-access.js';
import type { ApiInstance } from '../../plugins/types.js';
import { sendOutput } from './event-output.js';
import { EventsService } from './events.service.js';

/** Events routes (docs/wire.md#events). Literal segments (`count`, `all`, `bycruise`) win over `{id}`. */
export function eventsRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new EventsService(ctx);
  // Reads admit the anonymous archive visitor while the public archive is on (docs/public-archive.md).
  const read = { auth: true, scopes: ['admin', 'read_events'], access: 'events', archive: true } as const;
  const write = { auth: true, scopes: ['admin', 'write_events'], access: 'events' } as const;
  const adminOnly = { auth: true, scopes: ['admin'], access: 'admin' } as const;
  const tags = ['events'];

  app.get(
    '/events',
    {
      config: read,
      schema: {
        querystring: eventListQuerySchema,
        tags,
        response: { 200: jsonOrCsv(z.array(eventSchema), 'the events') },
      },
    },
    async (req, reply) =>
      sendOutput(reply, await service.list(caller(req), req.query, { kind: 'all' }, eventAccess(req))),
  );

  app.get(
    '/events/count',
    { config: read, schema: { querystring: eventListQuerySchema, tags, response: { 200: eventCountSchema } } },
    (req) => service.count(caller(req), req.query, { kind: 'all' }, eventAccess(req)),
  );

  for (const kind of ['cruise', 'lowering'] as const) {
    app.get(
      `/events/by${kind}/:id`,
      {
        config: read,
        schema: {
          params: idParamsSchema,
          querystring: eventListQuerySchema,
          tags,
          response: { 200: jsonOrCsv(z.array(eventSchema), 'the events') },
        },
      },
      async (req, reply) =>
        sendOutput(reply, await service.list(caller(req), req.query, { kind, id: req.params.id }, eventAccess(req))),
    );
    app.get(
      `/events/by${kind}/:id/count`,
      {
        config: read,
        schema: {
          params: idParamsSchema,
          querystring: eventListQuerySchema,
          tags,
          response: { 200: eventCountSchema },
        },
      },
      (req) => service.count(caller(req), req.query, { kind, id: req.params.id }, eventAccess(req)),
    );
  }

  app.get(
    '/events/:id',
    {
      config: read,
      schema: {
        params: idParamsSchema,
        querystring: eventGetQuerySchema,
        tags,
        response: { 200: jsonOrCsv(eventWithAuxDataSchema, 'the event') },
      },
    },
    async (req, reply) => sendOutput(reply, await service.get(req.params.id, req.query, eventAccess(req))),
  );

  app.post(
    '/events',
    {
      config: { ...write, origin: 'none' },
      schema: { body: createEventSchema, tags, response: { 201: createEventResponseSchema } },
    },
    async (req, reply) => reply.code(201).send(await service.create(caller(req), req.body, eventAccess(req))),
  );

  app.patch(
    '/events/:id',
    {
      // A copied event's comment alone may change here; it travels to the ship.
      config: { ...write, origin: { type: 'event', id: 'params.id', except: 'comment' } },
      schema: { params: idParamsSchema, body: updateEventSchema, tags, response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.update(caller(req), req.params.id, req.body, eventAccess(req));
      return reply.code(204).send();
    },
  );

  // The Sealog web client calls DELETE /events/all (wipe); the Sealog server also has the filtered
  // bulk delete, which scripts use. Serve both.
  app.delete(
    '/events/all',
    { config: { ...adminOnly, origin: 'bulk' }, schema: { tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.removeAll(caller(req));
      return reply.code(204).send();
    },
  );

  app.delete(
    '/events',
    {
      config: { ...adminOnly, origin: 'bulk' },
      schema: { querystring: eventListQuerySchema, tags, response: { 200: bulkDeleteEventsResponseSchema } },
    },
    (req) => service.bulkDelete(caller(req), req.query, eventAccess(req)),
  );

  app.delete(
    '/events/:id',
    {
      config: { ...write, origin: { type: 'event', id: 'params.id' } },
      schema: { params: idParamsSchema, tags, response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.remove(caller(req), req.params.id, eventAccess(req));
      return reply.code(204).send();
    },
  );
}

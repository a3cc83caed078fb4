import {
  createEventSchema,
  eventGetQuerySchema,
  eventListQuerySchema,
  idParamsSchema,
  updateEventSchema,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import { eventAccess } from '../access/event-access.js';
import type { ApiInstance } from '../../plugins/types.js';
import { sendOutput } from './event-output.js';
import { EventsService } from './events.service.js';

/** Events routes (reference §5.6). Literal segments (`count`, `all`, `bycruise`) win over `{id}`. */
export function eventsRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new EventsService(ctx);
  // Reads admit the anonymous archive visitor while the public archive is on (docs/public-archive.md).
  const read = { auth: true, scopes: ['admin', 'read_events'], access: 'events', archive: true } as const;
  const write = { auth: true, scopes: ['admin', 'write_events'], access: 'events' } as const;
  const adminOnly = { auth: true, scopes: ['admin'], access: 'admin' } as const;
  const tags = ['events'];

  app.get('/events', { config: read, schema: { querystring: eventListQuerySchema, tags } }, async (req, reply) =>
    sendOutput(reply, await service.list(caller(req), req.query, { kind: 'all' }, eventAccess(req))),
  );

  app.get('/events/count', { config: read, schema: { querystring: eventListQuerySchema, tags } }, (req) =>
    service.count(caller(req), req.query, { kind: 'all' }, eventAccess(req)),
  );

  for (const kind of ['cruise', 'lowering'] as const) {
    app.get(
      `/events/by${kind}/:id`,
      { config: read, schema: { params: idParamsSchema, querystring: eventListQuerySchema, tags } },
      async (req, reply) =>
        sendOutput(reply, await service.list(caller(req), req.query, { kind, id: req.params.id }, eventAccess(req))),
    );
    app.get(
      `/events/by${kind}/:id/count`,
      { config: read, schema: { params: idParamsSchema, querystring: eventListQuerySchema, tags } },
      (req) => service.count(caller(req), req.query, { kind, id: req.params.id }, eventAccess(req)),
    );
  }

  app.get(
    '/events/:id',
    { config: read, schema: { params: idParamsSchema, querystring: eventGetQuerySchema, tags } },
    async (req, reply) => sendOutput(reply, await service.get(req.params.id, req.query, eventAccess(req))),
  );

  app.post('/events', { config: write, schema: { body: createEventSchema, tags } }, async (req, reply) =>
    reply.code(201).send(await service.create(caller(req), req.body, eventAccess(req))),
  );

  app.patch(
    '/events/:id',
    { config: write, schema: { params: idParamsSchema, body: updateEventSchema, tags } },
    async (req, reply) => {
      await service.update(caller(req), req.params.id, req.body, eventAccess(req));
      return reply.code(204).send();
    },
  );

  // The seeds' client calls DELETE /events/all (wipe); the reference has the filtered bulk delete. Serve both.
  app.delete('/events/all', { config: adminOnly, schema: { tags } }, async (req, reply) => {
    await service.removeAll(caller(req));
    return reply.code(204).send();
  });

  app.delete('/events', { config: adminOnly, schema: { querystring: eventListQuerySchema, tags } }, (req) =>
    service.bulkDelete(caller(req), req.query, eventAccess(req)),
  );

  app.delete('/events/:id', { config: write, schema: { params: idParamsSchema, tags } }, async (req, reply) => {
    await service.remove(caller(req), req.params.id, eventAccess(req));
    return reply.code(204).send();
  });
}

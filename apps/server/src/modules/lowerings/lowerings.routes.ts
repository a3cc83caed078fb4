import type { FastifyReply } from 'fastify';
import {
  createLoweringSchema,
  idParamsSchema,
  loweringListQuerySchema,
  loweringsByCruiseQuerySchema,
  permissionsSchema,
  recordFormatQuerySchema,
  updateLoweringSchema,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { sendRecordRead } from '../cruises/cruises.routes.js';
import { LoweringsService, type LoweringRead } from './lowerings.service.js';

/**
 * Lowering routes (reference §5.4). Admins create and delete; cruise_managers edit existing
 * lowerings; access-list permissions are set by admins (seed 001 §6).
 */
export function loweringsRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new LoweringsService(ctx);
  // Reads admit the anonymous archive visitor while the public archive is on (docs/public-archive.md).
  const read = { auth: true, scopes: ['admin', 'read_lowerings'], archive: true } as const;
  const write = { auth: true, scopes: ['admin', 'write_lowerings'] } as const;
  const admin = { auth: true, scopes: ['admin'] } as const;
  const tags = ['lowerings'];
  const send = (reply: FastifyReply, result: LoweringRead) => sendRecordRead(reply, result);

  app.get('/lowerings', { config: read, schema: { querystring: loweringListQuerySchema, tags } }, async (req, reply) =>
    send(reply, await service.list(caller(req), req.query)),
  );

  app.delete('/lowerings/all', { config: admin, schema: { tags } }, async (req, reply) => {
    await service.removeAll(caller(req));
    return reply.code(204).send();
  });

  app.get(
    '/lowerings/bycruise/:id',
    { config: read, schema: { params: idParamsSchema, querystring: loweringsByCruiseQuerySchema, tags } },
    async (req, reply) => send(reply, await service.byCruise(caller(req), req.params.id, req.query)),
  );

  app.get(
    '/lowerings/byevent/:id',
    { config: read, schema: { params: idParamsSchema, querystring: recordFormatQuerySchema, tags } },
    async (req, reply) => send(reply, await service.byEvent(caller(req), req.params.id, req.query.format)),
  );

  app.get(
    '/lowerings/:id',
    { config: read, schema: { params: idParamsSchema, querystring: recordFormatQuerySchema, tags } },
    async (req, reply) => send(reply, await service.get(caller(req), req.params.id, req.query.format)),
  );

  // A bump makes every connected client re-read the lowering: only those who may edit it send one
  // (still a GET, as Sealog clients call it).
  app.get('/lowerings/:id/bump', { config: write, schema: { params: idParamsSchema, tags } }, async (req, reply) => {
    await service.bump(caller(req), req.params.id);
    return reply.code(200).send();
  });

  app.post('/lowerings', { config: admin, schema: { body: createLoweringSchema, tags } }, async (req, reply) => {
    const insertedId = await service.create(caller(req), req.body);
    return reply.code(201).send({ acknowledged: true, insertedId });
  });

  app.patch(
    '/lowerings/:id',
    { config: write, schema: { params: idParamsSchema, body: updateLoweringSchema, tags } },
    async (req, reply) => {
      await service.update(caller(req), req.params.id, req.body);
      return reply.code(204).send();
    },
  );

  app.patch(
    '/lowerings/:id/permissions',
    { config: admin, schema: { params: idParamsSchema, body: permissionsSchema, tags } },
    async (req, reply) => {
      await service.setPermissions(caller(req), req.params.id, req.body);
      return reply.code(204).send();
    },
  );

  app.delete('/lowerings/:id', { config: admin, schema: { params: idParamsSchema, tags } }, async (req, reply) => {
    await service.remove(caller(req), req.params.id);
    return reply.code(204).send();
  });
}

import { z } from 'zod/mini';
import type { FastifyReply } from 'fastify';
import {
  createCruiseSchema,
  cruiseIdParamsSchema,
  cruiseListQuerySchema,
  cruiseSchema,
  idParamsSchema,
  insertResultSchema,
  permissionsSchema,
  recordFormatQuerySchema,
  updateCruiseSchema,
} from '@bathylog/shared';
import { jsonOrCsv, noContent } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { sendRecordRead } from '../records/record-read.js';
import { withOrigins } from '../../origins/record-origins.js';
import { CruisesService, type CruiseRead } from './cruises.service.js';

/**
 * Cruise routes (docs/wire.md#cruises). Creating and deleting is for admins (Sealog's create_cruises
 * scope was never granted to anyone else); cruise_managers edit existing cruises; access-list
 * permissions are set by admins (docs/roles-and-access.md#cruise-managers).
 */
export function cruisesRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new CruisesService(ctx);
  // Reads admit the anonymous archive visitor while the public archive is on (docs/public-archive.md).
  const read = { auth: true, scopes: ['admin', 'read_cruises'], archive: true } as const;
  const write = { auth: true, scopes: ['admin', 'write_cruises'] } as const;
  const admin = { auth: true, scopes: ['admin'] } as const;
  /** The cruise the request names: a copy from a ship is read-only here (origins/origin-guard.ts). */
  const own = { type: 'cruise', id: 'params.id' } as const;
  const tags = ['cruises'];
  const send = (reply: FastifyReply, result: CruiseRead) => sendRecordRead(reply, result);
  /** The options of a read answering one cruise, as JSON or (format=csv) CSV, found by `params`. */
  const oneRecord = <P extends z.ZodMiniType>(params: P) => ({
    config: read,
    schema: {
      params,
      querystring: recordFormatQuerySchema,
      tags,
      response: { 200: jsonOrCsv(cruiseSchema, 'the cruise') },
    },
  });

  app.get(
    '/cruises',
    {
      config: read,
      schema: {
        querystring: cruiseListQuerySchema,
        tags,
        response: { 200: jsonOrCsv(z.array(cruiseSchema), 'the cruises') },
      },
    },
    async (req, reply) => send(reply, await withOrigins(ctx, 'cruise', await service.list(caller(req), req.query))),
  );

  // Literal segments win over parameters, as in Sealog.
  app.delete(
    '/cruises/all',
    { config: { ...admin, origin: 'bulk' }, schema: { tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.removeAll(caller(req));
      return reply.code(204).send();
    },
  );

  app.get('/cruises/bycruiseid/:cruise_id', oneRecord(cruiseIdParamsSchema), async (req, reply) =>
    send(reply, await service.getByRecordId(caller(req), req.params.cruise_id, req.query.format)),
  );

  app.get('/cruises/bylowering/:id', oneRecord(idParamsSchema), async (req, reply) =>
    send(reply, await service.byLowering(caller(req), req.params.id, req.query.format)),
  );

  app.get('/cruises/byevent/:id', oneRecord(idParamsSchema), async (req, reply) =>
    send(reply, await service.byEvent(caller(req), req.params.id, req.query.format)),
  );

  app.get('/cruises/:id', oneRecord(idParamsSchema), async (req, reply) =>
    send(reply, await service.get(caller(req), req.params.id, req.query.format)),
  );

  // A bump makes every connected client re-read the cruise: only those who may edit it send one
  // (still a GET, as Sealog clients call it).
  app.get(
    '/cruises/:id/bump',
    { config: write, schema: { params: idParamsSchema, tags, response: { 200: noContent } } },
    async (req, reply) => {
      await service.bump(caller(req), req.params.id);
      return reply.code(200).send();
    },
  );

  app.post(
    '/cruises',
    {
      config: { ...admin, origin: 'none' },
      schema: { body: createCruiseSchema, tags, response: { 201: insertResultSchema } },
    },
    async (req, reply) => {
      const insertedId = await service.create(caller(req), req.body);
      return reply.code(201).send({ acknowledged: true, insertedId });
    },
  );

  app.patch(
    '/cruises/:id',
    {
      config: { ...write, origin: own },
      schema: { params: idParamsSchema, body: updateCruiseSchema, tags, response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.update(caller(req), req.params.id, req.body);
      return reply.code(204).send();
    },
  );

  app.patch(
    '/cruises/:id/permissions',
    {
      config: { ...admin, origin: own },
      schema: { params: idParamsSchema, body: permissionsSchema, tags, response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.setPermissions(caller(req), req.params.id, req.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/cruises/:id',
    { config: { ...admin, origin: own }, schema: { params: idParamsSchema, tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.remove(caller(req), req.params.id);
      return reply.code(204).send();
    },
  );
}

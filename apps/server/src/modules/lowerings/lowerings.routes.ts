import { z } from 'zod/mini';
import type { FastifyReply } from 'fastify';
import {
  createLoweringSchema,
  idParamsSchema,
  insertResultSchema,
  loweringListQuerySchema,
  loweringIdParamsSchema,
  loweringsByCruiseQuerySchema,
  loweringSchema,
  permissionsSchema,
  recordFormatQuerySchema,
  trackColumnsSchema,
  updateLoweringSchema,
} from '@bathylog/shared';
import { jsonOrCsv, noContent } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { eventAccess } from '../access/event-access.js';
import { GisExportsService } from '../gis-exports/gis-exports.service.js';
import { sendRecordRead } from '../records/record-read.js';
import { withOrigins } from '../../origins/record-origins.js';
import { LoweringsService, type LoweringRead } from './lowerings.service.js';

/**
 * Lowering routes (docs/wire.md#lowerings). Admins create and delete; cruise_managers edit existing
 * lowerings; access-list permissions are set by admins (docs/roles-and-access.md#cruise-managers).
 */
export function loweringsRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new LoweringsService(ctx);
  // Reads admit the anonymous archive visitor while the public archive is on (docs/public-archive.md).
  const read = { auth: true, scopes: ['admin', 'read_lowerings'], archive: true } as const;
  const write = { auth: true, scopes: ['admin', 'write_lowerings'] } as const;
  const admin = { auth: true, scopes: ['admin'] } as const;
  /** The lowering the request names: a copy from a ship is read-only here (origins/origin-guard.ts). */
  const own = { type: 'lowering', id: 'params.id' } as const;
  const tags = ['lowerings'];
  const send = (reply: FastifyReply, result: LoweringRead) => sendRecordRead(reply, result);
  /** The options of a read answering one lowering, as JSON or (format=csv) CSV, found by `params`. */
  const oneRecord = <P extends z.ZodMiniType>(params: P) => ({
    config: read,
    schema: {
      params,
      querystring: recordFormatQuerySchema,
      tags,
      response: { 200: jsonOrCsv(loweringSchema, 'the lowering') },
    },
  });

  app.get(
    '/lowerings',
    {
      config: read,
      schema: {
        querystring: loweringListQuerySchema,
        tags,
        response: { 200: jsonOrCsv(z.array(loweringSchema), 'the lowerings') },
      },
    },
    async (req, reply) => send(reply, await withOrigins(ctx, 'lowering', await service.list(caller(req), req.query))),
  );

  app.delete(
    '/lowerings/all',
    { config: { ...admin, origin: 'bulk' }, schema: { tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.removeAll(caller(req));
      return reply.code(204).send();
    },
  );

  app.get(
    '/lowerings/bycruise/:id',
    {
      config: read,
      schema: {
        params: idParamsSchema,
        querystring: loweringsByCruiseQuerySchema,
        tags,
        response: { 200: jsonOrCsv(z.array(loweringSchema), 'the lowerings') },
      },
    },
    async (req, reply) =>
      send(reply, await withOrigins(ctx, 'lowering', await service.byCruise(caller(req), req.params.id, req.query))),
  );

  app.get('/lowerings/byevent/:id', oneRecord(idParamsSchema), async (req, reply) =>
    send(reply, await service.byEvent(caller(req), req.params.id, req.query.format)),
  );

  app.get('/lowerings/byloweringid/:lowering_id', oneRecord(loweringIdParamsSchema), async (req, reply) =>
    send(reply, await service.getByRecordId(caller(req), req.params.lowering_id, req.query.format)),
  );

  app.get('/lowerings/:id', oneRecord(idParamsSchema), async (req, reply) =>
    send(reply, await service.get(caller(req), req.params.id, req.query.format)),
  );

  // A bump makes every connected client re-read the lowering: only those who may edit it send one
  // (still a GET, as Sealog clients call it).
  app.get(
    '/lowerings/:id/bump',
    { config: write, schema: { params: idParamsSchema, tags, response: { 200: noContent } } },
    async (req, reply) => {
      await service.bump(caller(req), req.params.id);
      return reply.code(200).send();
    },
  );

  app.post(
    '/lowerings',
    {
      config: { ...admin, origin: 'none' },
      schema: { body: createLoweringSchema, tags, response: { 201: insertResultSchema } },
    },
    async (req, reply) => {
      const insertedId = await service.create(caller(req), req.body);
      return reply.code(201).send({ acknowledged: true, insertedId });
    },
  );

  app.patch(
    '/lowerings/:id',
    {
      config: { ...write, origin: own },
      schema: { params: idParamsSchema, body: updateLoweringSchema, tags, response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.update(caller(req), req.params.id, req.body);
      return reply.code(204).send();
    },
  );

  app.patch(
    '/lowerings/:id/permissions',
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
    '/lowerings/:id',
    { config: { ...admin, origin: own }, schema: { params: idParamsSchema, tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.remove(caller(req), req.params.id);
      return reply.code(204).send();
    },
  );

  // The dive track is computed by the GIS exports' position rule; its events follow the event access rule.
  const gis = new GisExportsService(ctx);
  app.get(
    '/tracks/bylowering/:id',
    {
      // Admits the anonymous archive visitor, as every dive read does (docs/public-archive.md).
      config: { auth: true, scopes: ['admin', 'read_events'], access: 'events', archive: true },
      schema: {
        params: idParamsSchema,
        tags: ['gis_exports'],
        response: { 200: trackColumnsSchema },
        summary: "A lowering's dive track as columns (review map, milestones editor)",
        description:
          'The track from the first configured position source with records in the lowering (no event filter), ' +
          'one row per event whose record was readable, in event-time order: eventIds, ts (epoch ms), lat, lon ' +
          '(null where the fix is zero), depth (null where none); problems: events whose record could not be read. ' +
          "Same access rules as the lowering's events.",
      },
    },
    (req) => gis.loweringTrack(caller(req), req.params.id, eventAccess(req)),
  );
}

import { Transform, type Readable } from 'node:stream';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import {
  idParamsSchema,
  legacyMappingSchema,
  legacyValueSchema,
  putLegacyMappingSchema,
  synonymReportQuerySchema,
  synonymReportRowSchema,
  taxonDetailSchema,
  taxonHitSchema,
  taxonImportQuerySchema,
  taxonImportSchema,
  taxonomyStatusSchema,
  taxonSearchQuerySchema,
  wormsFetchResultSchema,
  wormsFetchSchema,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { caller } from '../../plugins/auth.js';
import { noContent } from '../../plugins/response-schemas.js';
import type { ApiInstance } from '../../plugins/types.js';
import { eventAccess } from '../access/event-access.js';
import { TaxaService } from './taxa.service.js';

/** Largest taxonomy file read in one import (the WoRMS Darwin Core `taxon.txt` is well under it). */
const maxImportBytes = 2 * 1024 * 1024 * 1024;

/** Table uploads stream in under these types; JSON subsets come as application/json. */
const tableTypes = ['text/tab-separated-values', 'text/csv', 'application/octet-stream'];

function capped(input: Readable, max: number): Readable {
  let total = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      total += chunk.length;
      if (total > max) done(new AppError('PAYLOAD_TOO_LARGE', `A taxonomy file may be at most ${max} bytes`));
      else done(null, chunk);
    },
  });
  input.on('error', (err) => counter.destroy(err));
  return input.pipe(counter);
}

const aphiaParamsSchema = z.strictObject({
  aphia_id: z.string().check(z.regex(/^[1-9][0-9]{0,9}$/, 'must be an AphiaID (a positive integer)')),
});

/**
 * Taxa (docs/taxa.md#api): everyone signed in searches the taxonomy and reads the legacy mappings;
 * admins import, fetch from WoRMS and edit mappings; the synonym report reads events, so the one
 * event-access rule applies to it. The taxonomy is each server's own: no write changes a record
 * copied from a ship.
 */
export function taxaRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new TaxaService(ctx);
  const signedIn = { auth: true } as const;
  const admin = { auth: true, scopes: ['admin'], access: 'admin' } as const;
  const adminWrite = { ...admin, origin: 'none' } as const;
  const tags = ['taxa'];

  app.get(
    '/taxa',
    {
      config: signedIn,
      schema: { querystring: taxonSearchQuerySchema, tags, response: { 200: z.array(taxonHitSchema) } },
    },
    (req) => service.search(req.query.q, req.query.limit),
  );

  app.get('/taxa/status', { config: admin, schema: { tags, response: { 200: taxonomyStatusSchema } } }, () =>
    service.status(),
  );

  app.get(
    '/taxa/legacy_mappings',
    { config: signedIn, schema: { tags, response: { 200: z.array(legacyMappingSchema) } } },
    () => service.legacyMappings(),
  );

  app.put(
    '/taxa/legacy_mappings',
    { config: adminWrite, schema: { body: putLegacyMappingSchema, tags, response: { 200: legacyMappingSchema } } },
    (req) => service.putLegacyMapping(caller(req), req.body),
  );

  app.delete(
    '/taxa/legacy_mappings/:id',
    { config: adminWrite, schema: { params: idParamsSchema, tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.deleteLegacyMapping(caller(req), req.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/taxa/legacy_values',
    { config: admin, schema: { tags, response: { 200: z.array(legacyValueSchema) } } },
    (req) => service.legacyValues(caller(req)),
  );

  app.get(
    '/taxa/synonyms',
    {
      config: { auth: true, scopes: ['admin', 'read_events'], access: 'events' },
      schema: { querystring: synonymReportQuerySchema, tags, response: { 200: z.array(synonymReportRowSchema) } },
    },
    (req) => {
      const { cruise_id: cruiseId, lowering_id: loweringId } = req.query;
      if ((cruiseId === undefined) === (loweringId === undefined))
        throw new AppError('BAD_REQUEST', 'Name one of cruise_id or lowering_id');
      const id = (cruiseId ?? loweringId)!;
      if (!/^[0-9a-f]{24}$/.test(id))
        throw new AppError('BAD_REQUEST', `${cruiseId ? 'cruise_id' : 'lowering_id'} must be a 24-hex id`);
      const scope = cruiseId ? ({ kind: 'cruise', id } as const) : ({ kind: 'lowering', id } as const);
      return service.synonymReport(caller(req), scope, eventAccess(req));
    },
  );

  app.post(
    '/taxa/fetch',
    { config: adminWrite, schema: { body: wormsFetchSchema, tags, response: { 200: wormsFetchResultSchema } } },
    (req) => service.fetchFromWorms(caller(req), req.body.names),
  );

  app.get(
    '/taxa/:aphia_id',
    { config: signedIn, schema: { params: aphiaParamsSchema, tags, response: { 200: taxonDetailSchema } } },
    (req) => service.get(Number(req.params.aphia_id)),
  );

  // Imports stream their body: table types get a parser in this scope only that hands the
  // request stream on unread, so a 600 MB export never sits in memory.
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(tableTypes, (_req, payload, done) => done(null, payload));
    scope.post(
      '/taxa/imports',
      {
        config: adminWrite,
        schema: { querystring: taxonImportQuerySchema, tags, response: { 201: taxonImportSchema } },
      },
      async (req, reply) => {
        const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        const { kind, source } = req.query;
        const isTable = tableTypes.includes(type);
        if (kind === 'json' ? type !== 'application/json' : !isTable)
          throw new AppError(
            'UNSUPPORTED_MEDIA_TYPE',
            kind === 'json'
              ? 'A json import is sent as application/json'
              : `A ${kind} import is sent as ${tableTypes.slice(0, 2).join(' or ')}`,
          );
        const input = isTable ? { stream: capped(req.body as Readable, maxImportBytes) } : { json: req.body };
        return reply.code(201).send(await service.import(caller(req), kind, source, input));
      },
    );
  });
}

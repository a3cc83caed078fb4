import { z } from 'zod/mini';
import { auditPageSchema, auditQuerySchema, createEventResponseSchema, csvContentType } from '@bathylog/shared';
import { jsonOrCsv } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { EventsService } from '../events/events.service.js';
import { AuditService } from './audit.service.js';

const seqParams = z.strictObject({ seq: z.coerce.number().check(z.int(), z.minimum(1)) });

/** The audit trail (admins): read-only for the API, plus restoring a deleted event from its record. */
export function auditRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new AuditService(ctx);
  const events = new EventsService(ctx);
  const admin = { auth: true, scopes: ['admin'] } as const;
  const tags = ['audit'];

  app.get(
    '/audit',
    {
      config: admin,
      schema: {
        querystring: auditQuerySchema,
        tags,
        response: { 200: jsonOrCsv(auditPageSchema, 'the matching entries') },
        summary: 'The audit trail, newest first (admins)',
        description:
          'Filter by `actor` (username or device key name), `record_type`, `record_id` and a time range ' +
          '(`startTS`, `stopTS`); page with `offset` and `limit`. JSON answers `{total, entries}`; ' +
          '`format=csv` streams every matching entry (or the page asked for) as `text/csv`, one row per ' +
          'change with the old and new values as JSON text.',
      },
    },
    async (req, reply) => {
      if (req.query.format === 'csv') {
        return reply
          .type(csvContentType)
          .header('content-disposition', 'attachment; filename="audit.csv"')
          .send(service.csv(req.query));
      }
      return service.page(req.query);
    },
  );

  app.post(
    '/audit/:seq/restore',
    {
      config: { ...admin, origin: 'none' },
      schema: { params: seqParams, tags, response: { 201: createEventResponseSchema } },
    },
    async (req, reply) => reply.code(201).send(await events.restore(caller(req), req.params.seq)),
  );
}

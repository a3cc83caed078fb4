import { z } from 'zod';
import { auditQuerySchema, csvContentType } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { EventsService } from '../events/events.service.js';
import { AuditService } from './audit.service.js';

const seqParams = z.strictObject({ seq: z.coerce.number().int().min(1) });

/** The audit trail (admins): read-only for the API, plus restoring a deleted event from its record. */
export function auditRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new AuditService(ctx);
  const events = new EventsService(ctx);
  const admin = { auth: true, scopes: ['admin'] } as const;
  const tags = ['audit'];

  app.get('/audit', { config: admin, schema: { querystring: auditQuerySchema, tags } }, async (req, reply) => {
    if (req.query.format === 'csv') return reply.type(csvContentType).send(await service.csv(req.query));
    return service.page(req.query);
  });

  app.post('/audit/:seq/restore', { config: admin, schema: { params: seqParams, tags } }, async (req, reply) =>
    reply.code(201).send(await events.restore(caller(req), req.params.seq)),
  );
}

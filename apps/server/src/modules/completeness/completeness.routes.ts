import {
  completenessQuerySchema,
  completenessSummarySchema,
  idParamsSchema,
  newestCompletenessSchema,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { eventAccess } from '../access/event-access.js';
import { CompletenessService } from './completeness.service.js';

/** Data completeness of a lowering's events (docs/completeness.md#the-summary, a Bathylog addition). */
export function completenessRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new CompletenessService(ctx);
  // The same access as reading the lowering's events.
  const read = { auth: true, scopes: ['admin', 'read_events'], access: 'events', archive: true } as const;

  app.get(
    '/lowerings/:id/completeness',
    {
      config: read,
      schema: {
        params: idParamsSchema,
        querystring: completenessQuerySchema,
        tags: ['lowerings'],
        summary: "Whether the lowering's events carry their required aux data",
        response: { 200: completenessSummarySchema },
      },
    },
    (req) => service.summary(caller(req), req.params.id, req.query, eventAccess(req)),
  );

  app.get(
    '/completeness/newest',
    {
      config: read,
      schema: {
        tags: ['events'],
        summary: 'Whether the newest event the caller may see carries its required aux data',
        response: { 200: newestCompletenessSchema },
      },
    },
    (req) => service.newest(eventAccess(req)),
  );
}

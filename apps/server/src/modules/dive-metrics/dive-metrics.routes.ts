import {
  csvContentType,
  cruiseMetricsCsv,
  cruiseMetricsSchema,
  idParamsSchema,
  loweringMetricsSchema,
  metricsCsv,
  metricsQuerySchema,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import { jsonOrCsv } from '../../plugins/response-schemas.js';
import type { ApiInstance } from '../../plugins/types.js';
import { eventAccess } from '../access/event-access.js';
import { DiveMetricsService } from './dive-metrics.service.js';

/**
 * Dive metrics (Bathylog addition, docs/review-and-gis.md#dive-metrics): a lowering's figures, or
 * a cruise's per lowering with their sums, as JSON or (format=csv) CSV. Same access as reading
 * the record's events.
 */
export function diveMetricsRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new DiveMetricsService(ctx);
  // Admits the anonymous archive visitor, as every dive read does (docs/public-archive.md).
  const read = { auth: true, scopes: ['admin', 'read_events'], access: 'events', archive: true } as const;
  const tags = ['lowerings'];

  app.get(
    '/lowerings/:id/metrics',
    {
      config: read,
      schema: {
        params: idParamsSchema,
        querystring: metricsQuerySchema,
        tags,
        response: { 200: jsonOrCsv(loweringMetricsSchema, 'one row per metric: metric,value,unit') },
        summary: "A lowering's dive metrics",
        description:
          'Stage durations from the milestones, max and mean depth, distance on the bottom, events per category ' +
          'and per author, samples (configured sample event values) and frame grabs per camera.',
      },
    },
    async (req, reply) => {
      const metrics = await service.lowering(caller(req), req.params.id, eventAccess(req));
      if (req.query.format === 'csv') {
        return reply
          .type(csvContentType)
          .header('content-disposition', `attachment; filename="${safeName(metrics.lowering_id)}_metrics.csv"`)
          .send(metricsCsv(metrics));
      }
      return metrics;
    },
  );

  app.get(
    '/cruises/:id/metrics',
    {
      config: read,
      schema: {
        params: idParamsSchema,
        querystring: metricsQuerySchema,
        tags: ['cruises'],
        response: {
          200: jsonOrCsv(
            cruiseMetricsSchema,
            'one row per lowering and metric, then the sums: lowering_id,metric,value,unit',
          ),
        },
        summary: "A cruise's dive metrics: per lowering and summed",
      },
    },
    async (req, reply) => {
      const metrics = await service.cruise(caller(req), req.params.id, eventAccess(req));
      if (req.query.format === 'csv') {
        return reply
          .type(csvContentType)
          .header('content-disposition', `attachment; filename="${safeName(metrics.cruise_id)}_metrics.csv"`)
          .send(cruiseMetricsCsv(metrics));
      }
      return metrics;
    },
  );
}

const safeName = (name: string) => name.replace(/[^\w.-]/g, '_');

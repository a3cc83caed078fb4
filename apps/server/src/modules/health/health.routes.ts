import { healthSchema } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import type { ApiInstance } from '../../plugins/types.js';
import { HealthService } from './health.service.js';

/**
 * The health check a load balancer polls (docs/deployment.md#health-checks): public, as the
 * balancer holds no token, and it returns no record, only whether this process and its database
 * answer (503 otherwise, so the balancer sends requests to the other hosts).
 */
export function healthRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new HealthService(ctx);
  app.get(
    '/health',
    {
      schema: {
        tags: ['misc'],
        summary: 'Whether this server process and its database answer (for load balancers)',
        response: { 200: healthSchema },
      },
    },
    async (_req, reply) => {
      // Never cached by a proxy: each poll must reach the process.
      reply.header('cache-control', 'no-store');
      return service.check();
    },
  );
}
